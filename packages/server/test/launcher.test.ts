/**
 * The launcher's API (docs/api.md, Apps, Users): categories, requestable apps, icons (with their
 * content checked), favourites, and grants that expire, as the app list and forward auth see them.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { removeExpiredGrants } from '../src/services/access/grant-expiry.js';
import { JPEG, PNG, WEBP } from './support/images.js';
import { becomesTrue, CACHE_BOUND_MS, createApp, failure, unique, useTestPortal } from './support/support.js';

const portal = useTestPortal();

afterEach(() => {
  vi.useRealTimers();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function uploadIcon(token: string, appId: number, body: Buffer<ArrayBuffer> | string, contentType: string) {
  return portal.fetch(`/api/auth/v1/app/${appId}/icon`, { method: 'PUT', headers: { ...bearer(token), 'content-type': contentType }, body });
}

async function events(): Promise<string[]> {
  return (await portal.admin.logs.page(1, 100)).map((entry) => entry.event);
}

describe('apps: category and requestable', () => {
  it('are set on create, kept by a PUT without them, changed by a PUT with them', async () => {
    const name = unique('cat');
    const app = await portal.admin.apps.create({ name, url: 'https://cat.example.com/', category: '  Finance ', requestable: true });
    expect(app).toMatchObject({ name, category: 'Finance', requestable: true, icon: null });
    const kept = await portal.admin.apps.update({ id: app.id, name, url: 'https://cat2.example.com/' });
    expect(kept).toMatchObject({ url: 'https://cat2.example.com/', category: 'Finance', requestable: true });
    const changed = await portal.admin.apps.update({ id: app.id, name, url: 'https://cat2.example.com/', category: '', requestable: false });
    expect(changed).toMatchObject({ category: '', requestable: false });
    expect(await portal.admin.apps.get(app.id)).toEqual(changed);
    expect(await createApp(portal.admin)).toMatchObject({ category: '', requestable: false });
  });

  it('refuses bad values naming the field', async () => {
    const base = { name: unique('bad'), url: 'https://bad.example.com/' };
    expect(await failure(portal.admin.apps.create({ ...base, category: 'x'.repeat(201) }))).toMatchObject({ code: 'invalid_input', field: 'category' });
    expect(await failure(portal.admin.apps.create({ ...base, category: 'a\nb' }))).toMatchObject({ field: 'category' });
    for (const requestable of ['true', 1, null]) {
      expect(await failure(portal.admin.request('POST', '/app/', { ...base, requestable }))).toMatchObject({ field: 'requestable' });
    }
  });
});

describe('icons', () => {
  it('takes PNG, JPEG and WebP, and serves each to users who may use the app', async () => {
    const app = await createApp(portal.admin);
    const other = await createApp(portal.admin);
    const granted = await portal.createUser({ apps: [app] });
    const stranger = await portal.createUser({ apps: [other] });
    for (const [bytes, type] of [
      [PNG, 'image/png'],
      [JPEG, 'image/jpeg'],
      [WEBP, 'image/webp'],
    ] as const) {
      const response = await uploadIcon(portal.admin.token!, app.id, bytes, type);
      expect(response.status, await response.clone().text()).toBe(200);
      const updated = (await response.json()) as { icon: string };
      expect(updated.icon).toMatch(new RegExp(`^/api/auth/v1/app/${app.id}/icon\\?v=\\d+$`));
      const listed = (await granted.api.apps.list()).find((each) => each.id === app.id)!;
      expect(listed.icon).toBe(updated.icon);

      const served = await portal.fetch(updated.icon, { headers: bearer(granted.token) });
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe(type);
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(served.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
      expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    }
    // Without the current version the browser must ask again.
    const unversioned = await portal.fetch(`/api/auth/v1/app/${app.id}/icon?v=1`, { headers: bearer(granted.token) });
    expect(unversioned.headers.get('cache-control')).toBe('private, no-cache');
    // A user without the app cannot tell its icon from one that does not exist.
    const refused = await portal.fetch(`/api/auth/v1/app/${app.id}/icon`, { headers: bearer(stranger.token) });
    const missing = await portal.fetch(`/api/auth/v1/app/999999/icon`, { headers: bearer(stranger.token) });
    expect([refused.status, missing.status]).toEqual([404, 404]);
    expect((await portal.fetch(`/api/auth/v1/app/${app.id}/icon`)).status).toBe(401);
  });

  it('gives every change a new version, and removes the icon', async () => {
    const app = await createApp(portal.admin);
    const first = (await (await uploadIcon(portal.admin.token!, app.id, PNG, 'image/png')).json()) as { icon: string };
    const second = (await (await uploadIcon(portal.admin.token!, app.id, PNG, 'image/png')).json()) as { icon: string };
    expect(second.icon).not.toBe(first.icon);
    await portal.admin.apps.removeIcon(app.id);
    expect((await portal.admin.apps.get(app.id)).icon).toBeNull();
    expect((await portal.fetch(`/api/auth/v1/app/${app.id}/icon`, { headers: bearer(portal.admin.token!) })).status).toBe(404);
    expect(await failure(portal.admin.apps.removeIcon(app.id))).toMatchObject({ code: 'not_found' });
    const third = (await (await uploadIcon(portal.admin.token!, app.id, PNG, 'image/png')).json()) as { icon: string };
    expect([first.icon, second.icon]).not.toContain(third.icon);
    expect(await events()).toContain(`removed the icon of app ${app.name}`);
  });

  it('refuses what is too big, SVG, a PNG header on something else, and a type that lies', async () => {
    const app = await createApp(portal.admin);
    const svg = '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const pngHeaderOnHtml = Buffer.concat([PNG.subarray(0, 8), Buffer.from('<html><script>alert(1)</script></html>')]);
    const pngHeaderOnSvg = Buffer.concat([PNG.subarray(0, 33), Buffer.from(svg)]);
    const corrupted = Buffer.from(PNG);
    corrupted[40] ^= 0xff; // inside the IDAT chunk: its checksum fails
    const trailing = Buffer.concat([PNG, Buffer.from('<script>alert(1)</script>')]);
    const truncatedJpeg = JPEG.subarray(0, JPEG.length - 2);
    const bigPng = Buffer.concat([PNG, Buffer.alloc(256 * 1024)]);
    const cases: [string, Buffer<ArrayBuffer> | string, string, number][] = [
      ['too big', bigPng, 'image/png', 413],
      ['SVG declared', svg, 'image/svg+xml', 400],
      ['SVG as PNG', svg, 'image/png', 400],
      ['a PNG signature on HTML', pngHeaderOnHtml, 'image/png', 400],
      ['a PNG header on SVG', pngHeaderOnSvg, 'image/png', 400],
      ['a PNG with a broken chunk', corrupted, 'image/png', 400],
      ['a PNG with bytes after its end', trailing, 'image/png', 400],
      ['a JPEG without its end', truncatedJpeg, 'image/jpeg', 400],
      ['JPEG bytes said to be PNG', JPEG, 'image/png', 400],
      ['a PNG said to be text', PNG, 'text/plain', 400],
      ['a PNG said to be JSON', PNG, 'application/json', 400],
      ['empty', Buffer.alloc(0), 'image/png', 400],
      ['a GIF', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), 'image/gif', 400],
    ];
    for (const [label, body, type, status] of cases) {
      const response = await uploadIcon(portal.admin.token!, app.id, body, type);
      const answer = (await response.json()) as { error: { details: { field?: string } } };
      expect(response.status, label).toBe(status);
      // A JSON content type meets the JSON body parser first, which refuses the body as such.
      expect(answer.error.details.field, label).toBe(type === 'application/json' ? 'body' : 'icon');
    }
    expect((await portal.admin.apps.get(app.id)).icon).toBeNull();
    const { api } = await portal.createUser({ apps: [app] });
    expect((await uploadIcon(api.token!, app.id, PNG, 'image/png')).status).toBe(403);
    expect((await uploadIcon(portal.admin.token!, 999999, PNG, 'image/png')).status).toBe(404);
  });
});

describe('favourites', () => {
  it('marks the caller’s own apps only, in the caller’s own list', async () => {
    const first = await createApp(portal.admin);
    const second = await createApp(portal.admin);
    const hidden = await createApp(portal.admin);
    const alice = await portal.createUser({ apps: [first, second] });
    const bob = await portal.createUser({ apps: [first] });
    await alice.api.users.favourite(second.id);
    await alice.api.users.favourite(second.id); // twice is fine
    const mine = await alice.api.apps.list();
    expect(Object.fromEntries(mine.map((app) => [app.id, app.favourite]))).toEqual({ [first.id]: false, [second.id]: true });
    expect((await bob.api.apps.list()).every((app) => !app.favourite)).toBe(true);
    // An app the caller may not use answers like one that does not exist.
    const refused = await failure(alice.api.users.favourite(hidden.id));
    const missing = await failure(alice.api.users.favourite(999999));
    expect(refused.code).toBe('not_found');
    expect(missing.code).toBe('not_found');
    await alice.api.users.unfavourite(second.id);
    await alice.api.users.unfavourite(second.id);
    expect((await alice.api.apps.list()).every((app) => !app.favourite)).toBe(true);
    // Admins may use, and so mark, every app.
    await portal.admin.users.favourite(hidden.id);
    expect((await portal.admin.apps.list()).find((app) => app.id === hidden.id)?.favourite).toBe(true);
    await portal.admin.users.unfavourite(hidden.id);
  });
});

describe('grants that expire', () => {
  it('takes an expiry in the future only, shows it where set, and changes it', async () => {
    const app = await createApp(portal.admin);
    const plain = await createApp(portal.admin);
    const { user } = await portal.createUser({ apps: [plain] });
    const grant = (body: unknown) => portal.admin.request('POST', `/user/${user.id}/app`, body);
    expect(await failure(grant({ appid: app.id, expires: new Date(Date.now() - 1000).toISOString() }))).toMatchObject({
      code: 'invalid_input',
      field: 'expires',
    });
    for (const expires of ['tomorrow', '2030-13-45', 1893456000000, '2030-01-01T00:00:00Z<script>', '']) {
      expect(await failure(grant({ appid: app.id, expires })), String(expires)).toMatchObject({ code: 'invalid_input', field: 'expires' });
    }
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    await portal.admin.users.grant(user.id, app.id, expires);
    const apps = await portal.admin.users.apps(user.id);
    expect(apps.find((each) => each.id === app.id)?.expires).toBe(expires);
    expect(apps.find((each) => each.id === plain.id)).not.toHaveProperty('expires');
    expect((await portal.admin.apps.users(app.id)).find((each) => each.id === user.id)?.expires).toBe(expires);
    expect((await portal.admin.apps.users(plain.id)).find((each) => each.id === user.id)).not.toHaveProperty('expires');

    const later = new Date(Date.now() + 7 * 86_400_000).toISOString();
    await portal.admin.users.setGrantExpiry(user.id, app.id, later);
    expect((await portal.admin.users.apps(user.id)).find((each) => each.id === app.id)?.expires).toBe(later);
    await portal.admin.users.setGrantExpiry(user.id, app.id, null);
    expect((await portal.admin.users.apps(user.id)).find((each) => each.id === app.id)).not.toHaveProperty('expires');
    expect(await failure(portal.admin.users.setGrantExpiry(user.id, app.id, new Date(Date.now() - 1).toISOString()))).toMatchObject({ field: 'expires' });
    expect(await failure(portal.admin.request('PUT', `/user/${user.id}/app/${app.id}`, {}))).toMatchObject({ field: 'expires' });
    const ungranted = await createApp(portal.admin);
    expect(await failure(portal.admin.users.setGrantExpiry(user.id, ungranted.id, later))).toMatchObject({ code: 'not_found' });
    expect(await events()).toContain(`grant of app ${app.name} to ${user.email} no longer expires`);
  });

  it('at expiry: gone from the app list at once, refused by /verify within the cache bound, removed and logged', async () => {
    const app = await createApp(portal.admin);
    const { api, user, token, email } = await portal.createUser();
    const expiresAt = Date.now() + 3000;
    await portal.admin.users.grant(user.id, app.id, new Date(expiresAt).toISOString());
    const verify = async () => (await portal.fetch(`/api/auth/v1/verify?app=${encodeURIComponent(app.name)}`, { headers: bearer(token) })).status;
    // Warm the forward-auth cache with the grant, as a busy proxy would.
    expect(await verify()).toBe(200);
    expect((await api.apps.list()).map((each) => each.id)).toEqual([app.id]);

    const refused = await becomesTrue(async () => (await verify()) === 403, expiresAt - Date.now() + CACHE_BOUND_MS + 500, 100);
    expect(refused).toBe(true);
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);
    expect(await api.apps.list()).toEqual([]);
    expect(await portal.admin.users.apps(user.id)).toEqual([]);
    expect(await portal.admin.apps.users(app.id)).toEqual([]);

    // The sweep runs every 5 seconds on each instance.
    const logged = await becomesTrue(async () => (await events()).some((event) => event.startsWith(`grant of app ${app.name} to ${email} expired`)), 7000, 250);
    expect(logged).toBe(true);
    expect(await portal.deps.db('user_apps').where({ user_id: user.id, app_id: app.id }).first()).toBeUndefined();
    // The app can be granted again.
    await portal.admin.users.grant(user.id, app.id);
    expect(await verify()).toBe(200);
  });

  it('leaves a remembered app list at the expiry of one of its grants, though nothing was written', async () => {
    const [lasting, expiring] = [await createApp(portal.admin), await createApp(portal.admin)];
    const { api, user } = await portal.createUser({ apps: [lasting] });
    // Within a minute: a later request would write the session's last use, and a write forgets every remembered list.
    const expiresAt = Date.now() + 30_000;
    await portal.admin.users.grant(user.id, expiring.id, new Date(expiresAt).toISOString());
    const ids = async () => (await api.apps.list()).map((each) => each.id).sort();
    expect(await ids()).toEqual([lasting.id, expiring.id].sort());
    expect(await ids()).toEqual([lasting.id, expiring.id].sort());
    // Only Date moves, and nothing is written before the list is asked for (the sweep runs every 5 s).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(expiresAt);
    expect(await ids()).toEqual([lasting.id]);
  });

  it('answers a changed app list after a change, compressed or not', async () => {
    const { user, token } = await portal.createUser();
    // fetch decompresses: the header tells how the answer came.
    const listed = async (encoding: string) => {
      const response = await portal.fetch('/api/auth/v1/app/', { headers: { ...bearer(token), 'accept-encoding': encoding } });
      const ids = ((await response.json()) as { id: number }[]).map((each) => each.id).sort();
      return { ids, encoding: response.headers.get('content-encoding') ?? 'identity' };
    };
    const granted: number[] = [];
    let compressed = false;
    // Enough apps for the answer to pass 1 KB, when it is compressed.
    for (let round = 0; round < 8; round++) {
      const app = await createApp(portal.admin);
      await portal.admin.users.grant(user.id, app.id);
      granted.push(app.id);
      for (const encoding of ['br', 'identity', 'br']) {
        const answer = await listed(encoding);
        expect(answer.ids, `${round} ${encoding}`).toEqual([...granted].sort());
        compressed ||= answer.encoding === 'br';
      }
    }
    expect(compressed).toBe(true);
    const head = await portal.fetch('/api/auth/v1/app/', { method: 'HEAD', headers: bearer(token) });
    const get = await portal.fetch('/api/auth/v1/app/', { headers: { ...bearer(token), 'accept-encoding': 'identity' } });
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(await get.text())));
  });

  it('two instances sweeping at once remove and log each expired grant once', async () => {
    const app = await createApp(portal.admin);
    const users = await Promise.all([1, 2, 3].map(() => portal.createUser()));
    const now = Date.now();
    // Written past expiry directly: the API only takes expiries in the future.
    await portal.deps.db('user_apps').insert(users.map(({ user }) => ({ user_id: user.id, app_id: app.id, expires_at: now - 1000 })));
    const removed = await Promise.all([
      removeExpiredGrants(portal.deps.db, now),
      removeExpiredGrants(portal.deps.db, now),
      removeExpiredGrants(portal.deps.db, now),
    ]);
    expect(removed.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(3);
    const rows = await portal.deps.db('auth_log').where('event', 'like', `grant of app ${app.name} to %expired%`).select('event');
    expect(rows).toHaveLength(3);
    expect(await portal.deps.db('user_apps').where({ app_id: app.id })).toEqual([]);
  });

  it('an expired grant awaiting removal does not block a new grant', async () => {
    const app = await createApp(portal.admin);
    const { user, api } = await portal.createUser();
    await portal.deps.db('user_apps').insert({ user_id: user.id, app_id: app.id, expires_at: Date.now() - 1 });
    expect(await api.apps.list()).toEqual([]);
    expect(await failure(portal.admin.users.revoke(user.id, app.id))).toMatchObject({ code: 'not_found' });
    await portal.admin.users.grant(user.id, app.id);
    expect((await api.apps.list()).map((each) => each.id)).toEqual([app.id]);
  });
});
