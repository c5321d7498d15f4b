import type { Context } from '../context.js';
import { UsageError } from '../exit-codes.js';
import type { Result } from '../output.js';
import { done } from '../present.js';

export async function list(ctx: Context): Promise<Result> {
  const sessions = await (await ctx.client()).account.sessions.list();
  return {
    json: sessions,
    quiet: sessions.map((session) => session.id),
    table: {
      head: ['id', 'current', 'signed in', 'last used', 'ip', 'browser'],
      rows: sessions.map((session) => [
        session.id,
        session.current ? 'yes' : '',
        session.createdTimestamp,
        session.lastUsedTimestamp ?? '',
        session.ip ?? '',
        session.name ?? session.userAgent ?? '',
      ]),
    },
  };
}

export async function revoke(ctx: Context, id: string | undefined, options: { others?: boolean }): Promise<Result> {
  if (options.others === (id !== undefined)) throw new UsageError('give a session id, or --others (not both)');
  const api = await ctx.client();
  if (options.others) {
    await api.account.sessions.revokeOthers();
    return done('ended every other session', { revoked: 'others' });
  }
  const sessionId = Number(id);
  if (!Number.isSafeInteger(sessionId) || sessionId <= 0) throw new UsageError(`not a session id: ${id}`);
  await api.account.sessions.revoke(sessionId);
  return done(`ended session ${sessionId}`, { revoked: sessionId }, [sessionId]);
}
