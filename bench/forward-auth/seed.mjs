// Test data for forward-auth.bench.mjs, written straight into a migrated database with batched
// multi-row inserts in one transaction: a million rows take seconds, not minutes.
import { createHash, randomBytes } from 'node:crypto';

const sha256 = (value) => createHash('sha256').update(value, 'utf8').digest('hex');
const DAY_MS = 24 * 60 * 60 * 1000;

/** Inserts rows (arrays in `columns` order) in multi-row statements, within `maxBindings` per statement. */
async function insertRows(db, table, columns, rows, maxBindings = 12_000) {
  const perStatement = Math.max(1, Math.floor(maxBindings / columns.length));
  const head = `insert into "${table}" (${columns.map((column) => `"${column}"`).join(', ')}) values `;
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    await db.raw(head + Array(chunk.length).fill(tuple).join(', '), chunk.flat());
  }
}

/** Rows produced lazily and inserted in chunks, so a million of them never sit in memory at once. */
async function insertGenerated(db, table, columns, count, makeRow, maxBindings = 12_000) {
  const perStatement = Math.max(1, Math.floor(maxBindings / columns.length));
  for (let start = 0; start < count; start += perStatement) {
    const rows = [];
    for (let i = start; i < Math.min(count, start + perStatement); i++) rows.push(makeRow(i));
    await insertRows(db, table, columns, rows, maxBindings);
  }
}

const newToken = () => randomBytes(32).toString('base64url');

async function idOf(db, table, where) {
  const row = await db(table).where(where).first('id');
  return row.id;
}

/**
 * A small portal: one client with the bench user, 50 apps on one host (the user holds a few),
 * and a session. Answers the session token and the URL to ask /verify about.
 */
export async function seedSmall(db) {
  const now = Date.now();
  const token = newToken();
  await db.transaction(async (trx) => {
    await insertRows(trx, 'clients', ['name', 'created_at'], [['Bench', now]]);
    const clientId = await idOf(trx, 'clients', { name: 'Bench' });
    await insertRows(trx, 'users', ['email', 'name', 'client_id', 'created_at'], [['bench@example.com', 'Bench User', clientId, now]]);
    const userId = await idOf(trx, 'users', { email: 'bench@example.com' });
    const apps = Array.from({ length: 50 }, (_, i) => [`tool-${i}`, `https://tools.example.com/tool-${i}/`, `Tool ${i}`, '', now]);
    apps.push(['grafana', 'https://tools.example.com/grafana/', 'Dashboards', '', now]);
    await insertRows(trx, 'apps', ['name', 'url', 'description', 'doclink', 'created_at'], apps);
    const granted = await trx('apps').whereIn('name', ['grafana', 'tool-3', 'tool-7']).select('id');
    await insertRows(
      trx,
      'user_apps',
      ['user_id', 'app_id'],
      granted.map((app) => [userId, app.id]),
    );
    await insertRows(
      trx,
      'sessions',
      ['token_hash', 'user_id', 'created_at', 'last_seen_at', 'expires_at'],
      [[sha256(token), userId, now, now, now + 365 * DAY_MS]],
    );
  });
  return { token, originalUrl: 'https://tools.example.com/grafana/d/abc?orgId=1' };
}

const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'toolsctl/0.1.0',
];
const EVENTS = ['login with password', 'logout', 'login failed: wrong password', 'granted app app-0042 to someone', 'created API key apikey-AbCd…wxyz'];

/**
 * A large portal: the Admin client with one admin, 1,000 clients, 100,000 users (5 apps each,
 * the bench user 20), 1,000 apps in 50 categories, 10,000 sessions and 1,000,000 event log rows;
 * the launcher user (user 3) with 200 grants (50 of them expiring) and 20 favourites; 2,000 teams
 * with 3 apps each and 200,000 memberships, and the team user (user 4) in teams 1 to 5, who
 * reaches the last app (with roles) only through team 3.
 * Answers the bench user's, the launcher user's, the team user's and the admin's session tokens,
 * and the URL of the team user's app.
 */
export async function seedLarge(db, { users = 100_000, apps = 1_000, clients = 1_000, logRows = 1_000_000, sessions = 10_000, teams = 2_000 } = {}) {
  const now = Date.now();
  const userToken = newToken();
  const launcherToken = newToken();
  const adminToken = newToken();
  const teamToken = newToken();
  const pad = (n, width) => String(n).padStart(width, '0');
  const sqlite = db.client.config.client !== 'pg';
  // A throwaway database: SQLite may skip its journal while seeding; the server turns WAL back on.
  if (sqlite) for (const pragma of ['journal_mode = OFF', 'synchronous = OFF', 'cache_size = -262144']) await db.raw(`PRAGMA ${pragma}`);
  await db.transaction(async (trx) => {
    // Fresh tables number their rows from 1, in insertion order: ids below follow from that.
    await insertRows(trx, 'clients', ['name', 'created_at'], [['Admin', now]]);
    await insertGenerated(trx, 'clients', ['name', 'created_at'], clients, (i) => [`Client ${pad(i + 1, 4)}`, now]);
    await insertGenerated(trx, 'apps', ['name', 'url', 'description', 'doclink', 'category', 'requestable', 'icon_version', 'created_at'], apps, (i) => [
      `app-${pad(i + 1, 4)}`,
      `https://app-${pad(i + 1, 4)}.example.com/`,
      `The app number ${i + 1}, with a description of the usual length.`,
      '',
      `Category ${pad((i % 50) + 1, 2)}`,
      i % 10 === 0,
      i % 4 === 0 ? now : null,
      now,
    ]);
    // User 1 is the admin; users 2.. are spread over the clients; user 2 is the bench user.
    await insertRows(trx, 'users', ['email', 'name', 'client_id', 'created_at'], [['admin@bench.example.com', 'Admin', 1, now]]);
    await insertGenerated(trx, 'users', ['email', 'name', 'client_id', 'created_at'], users, (i) => [
      `user${pad(i + 1, 6)}@bench.example.com`,
      `User ${i + 1}`,
      2 + (i % clients),
      now,
    ]);
    const grantsOf = (userId) => Array.from({ length: userId === 2 ? 20 : 5 }, (_, k) => ((userId * 7 + k * 47) % apps) + 1);
    const grantRows = [];
    for (let userId = 2; userId <= users + 1; userId++) if (userId !== 3) for (const appId of grantsOf(userId)) grantRows.push([userId, appId, null]);
    // The launcher user: 200 different apps, every fourth grant expiring in a month.
    const launcherApps = Array.from({ length: Math.min(200, apps) }, (_, k) => ((k * 5) % apps) + 1);
    for (const [k, appId] of launcherApps.entries()) grantRows.push([3, appId, k % 4 === 0 ? now + 30 * DAY_MS : null]);
    await insertRows(trx, 'user_apps', ['user_id', 'app_id', 'expires_at'], grantRows);
    await insertRows(
      trx,
      'favourites',
      ['user_id', 'app_id'],
      launcherApps.slice(0, 20).map((appId) => [3, appId]),
    );
    // Teams: each grants 3 of apps 1 to apps - 1; users 5.. are in two teams each (200,000
    // memberships for 100,000 users). The team user is in teams 1 to 5; team 3 alone grants the
    // last app, which has roles, as editor.
    await insertGenerated(trx, 'teams', ['name', 'name_key', 'description', 'created_at'], teams, (i) => [
      `Team ${pad(i + 1, 4)}`,
      `team ${pad(i + 1, 4)}`,
      '',
      now,
    ]);
    await insertGenerated(trx, 'team_apps', ['team_id', 'app_id', 'role', 'expires_at'], teams * 3, (i) => [
      Math.floor(i / 3) + 1,
      ((Math.floor(i / 3) * 11 + (i % 3) * 101) % (apps - 1)) + 1,
      null,
      null,
    ]);
    await trx('apps')
      .where({ id: apps })
      .update({ roles: JSON.stringify(['viewer', 'editor']) });
    await insertRows(trx, 'team_apps', ['team_id', 'app_id', 'role', 'expires_at'], [[3, apps, 'editor', null]]);
    const members = [];
    for (let team = 1; team <= 5; team++) members.push([team, 4, null]);
    await insertRows(trx, 'team_members', ['team_id', 'user_id', 'expires_at'], members);
    const memberUsers = users - 3;
    await insertGenerated(trx, 'team_members', ['team_id', 'user_id', 'expires_at'], memberUsers * 2, (i) => {
      const user = 5 + Math.floor(i / 2);
      return [i % 2 === 0 ? (user % teams) + 1 : ((user + teams / 2) % teams) + 1, user, null];
    });
    await insertRows(
      trx,
      'sessions',
      ['token_hash', 'user_id', 'created_at', 'last_seen_at', 'expires_at'],
      [
        [sha256(adminToken), 1, now, now, now + 365 * DAY_MS],
        [sha256(userToken), 2, now, now, now + 365 * DAY_MS],
        [sha256(launcherToken), 3, now, now, now + 365 * DAY_MS],
        [sha256(teamToken), 4, now, now, now + 365 * DAY_MS],
      ],
    );
    await insertGenerated(trx, 'sessions', ['token_hash', 'user_id', 'created_at', 'last_seen_at', 'expires_at'], sessions, (i) => [
      sha256(`other-session-${i}`),
      3 + ((i * 13) % (users - 1)),
      now,
      now,
      now + 365 * DAY_MS,
    ]);
    const start = now - 365 * DAY_MS;
    await insertGenerated(trx, 'auth_log', ['at', 'client', 'user', 'event', 'ip', 'user_agent'], logRows, (i) => {
      const user = 1 + ((i * 7919) % users);
      return [
        start + Math.floor((i * 365 * DAY_MS) / logRows),
        `Client ${pad(1 + (user % clients), 4)}`,
        `user${pad(user, 6)}@bench.example.com`,
        EVENTS[i % EVENTS.length],
        `10.0.${(i >> 8) & 255}.${i & 255}`,
        USER_AGENTS[i % USER_AGENTS.length],
      ];
    });
  });
  return { userToken, launcherToken, adminToken, teamToken, teamAppUrl: `https://app-${pad(apps, 4)}.example.com/dashboards/1` };
}
