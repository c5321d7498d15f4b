/**
 * The denied page behind real proxies (docs/forward-auth.md): the nginx `error_page 403` and the
 * Caddy `handle_response` lines of the documented blocks send a refused browser to the portal's
 * page at /auth/#/denied/{app}; a script still gets the 403; the page names an app only when the
 * proxy named it or the user may request it. Without nginx or Caddy this file skips loudly,
 * except under CI=true, where it fails.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedCaddyBlock, findCaddy, startCaddy, type Caddy } from './proxies/caddy.js';
import { documentedNginxBlock, findNginx, startNginx, type Nginx } from './proxies/nginx.js';
import { rawGet, startEchoApp, type EchoApp } from './proxies/proxied-app.js';
import { freePort, startTestPortal, type TestPortal, type TestUser } from './support/support.js';

const DOC = fileURLToPath(new URL('../../../docs/forward-auth.md', import.meta.url));
const nginxBinary = findNginx('proxy-denied-page.test.ts');
const caddyBinary = findCaddy('proxy-denied-page.test.ts');

describe.runIf((!nginxBinary || !caddyBinary) && process.env.CI === 'true')('the denied page behind proxies', () => {
  it('needs nginx and caddy under CI=true', () => {
    throw new Error('nginx or caddy is not installed: .ci/run installs them with apt-get');
  });
});

const PAGE = { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8' };
const cookie = (token: string) => ({ cookie: `accesstoken=${token}` });

interface Setup {
  portal: TestPortal;
  proxyUrl: string;
  apps: EchoApp[];
  stop(): Promise<void>;
}

type Proxy = 'nginx' | 'caddy';

/** A portal, echo apps, and the documented block of one proxy, pointed at them. */
async function startSetup(proxy: Proxy, marker: 'single' | 'paths'): Promise<Setup> {
  const portal = await startTestPortal();
  const apps = await Promise.all((marker === 'single' ? ['wiki'] : ['root', 'grafana']).map((name) => startEchoApp(name)));
  const port = await freePort();
  const portalPort = new URL(portal.url).port;
  let server: Nginx | Caddy;
  if (proxy === 'nginx') {
    const http = documentedNginxBlock(DOC, 'tested-nginx-http', ['$app_cookie']);
    const block = documentedNginxBlock(DOC, marker === 'single' ? 'tested-nginx' : 'tested-nginx-paths', [
      'listen 80;',
      '127.0.0.1:8080',
      '127.0.0.1:3000',
      'error_page 403 = @portal_denied;',
      'location @portal_denied',
    ])
      .replace('listen 80;', `listen 127.0.0.1:${port};`)
      .replace(/\$scheme:\/\/(wiki|tools)\.example\.com\$request_uri/, `$scheme://127.0.0.1:${port}$request_uri`)
      .replaceAll('127.0.0.1:8080', `127.0.0.1:${portalPort}`)
      .replaceAll('127.0.0.1:3000', `127.0.0.1:${apps[0].port}`)
      .replaceAll('127.0.0.1:3001', `127.0.0.1:${apps[1]?.port}`);
    server = await startNginx(nginxBinary!, port, http + block);
  } else {
    const site = marker === 'single' ? 'wiki.example.com {' : 'tools.example.com {';
    const block = documentedCaddyBlock(DOC, marker === 'single' ? 'tested-caddy' : 'tested-caddy-paths', [
      site,
      '127.0.0.1:8080',
      '127.0.0.1:3000',
      'handle_response @denied',
    ])
      .replace(site, `http://127.0.0.1:${port} {`)
      .replace(/header_up X-Forwarded-Host (wiki|tools)\.example\.com/, `header_up X-Forwarded-Host 127.0.0.1:${port}`)
      .replaceAll('127.0.0.1:8080', `127.0.0.1:${portalPort}`)
      .replaceAll('127.0.0.1:3000', `127.0.0.1:${apps[0].port}`)
      .replaceAll('127.0.0.1:3001', `127.0.0.1:${apps[1]?.port}`);
    server = await startCaddy(caddyBinary!, port, block);
  }
  return {
    portal,
    proxyUrl: server.url,
    apps,
    async stop() {
      await server.stop();
      for (const app of apps) await app.close();
      await portal.close();
    },
  };
}

for (const proxy of ['nginx', 'caddy'] as const) {
  const available = proxy === 'nginx' ? Boolean(nginxBinary) : Boolean(caddyBinary);

  describe.runIf(available)(`${proxy}: one app, named by ?app= (docs/forward-auth.md)`, () => {
    let setup: Setup;
    let granted: TestUser;
    let refused: TestUser;
    beforeAll(async () => {
      setup = await startSetup(proxy, 'single');
      const wiki = await setup.portal.admin.apps.create({ name: 'wiki', url: `${setup.proxyUrl}/`, requestable: true });
      granted = await setup.portal.createUser({ apps: [wiki] });
      refused = await setup.portal.createUser();
    });
    afterAll(async () => setup?.stop());

    it('sends a refused browser to the denied page of the app; a script gets the 403; the granted user passes', async () => {
      const hits = setup.apps[0].hits();
      const page = await rawGet(setup.proxyUrl, '/page?x=1', { ...PAGE, ...cookie(refused.token) });
      expect(page.status).toBe(302);
      expect(page.headers.location).toBe(`${setup.portal.url}/auth/#/denied/wiki`);
      const script = await rawGet(setup.proxyUrl, '/api/data', { accept: 'application/json', ...cookie(refused.token) });
      expect(script.status).toBe(403);
      const xhr = await rawGet(setup.proxyUrl, '/page', { ...PAGE, 'x-requested-with': 'XMLHttpRequest', ...cookie(refused.token) });
      expect(xhr.status).toBe(403);
      expect(setup.apps[0].hits()).toBe(hits);
      expect((await rawGet(setup.proxyUrl, '/page', { ...PAGE, ...cookie(granted.token) })).status).toBe(200);
      // Not logged in is still the login screen, not the denied page.
      const anonymous = await rawGet(setup.proxyUrl, '/page', PAGE);
      expect(anonymous.status).toBe(302);
      expect(anonymous.headers.location).toContain('/auth/#/login/');
    });
  });

  describe.runIf(available)(`${proxy}: apps judged by path (docs/forward-auth.md)`, () => {
    let setup: Setup;
    let nobody: TestUser;
    beforeAll(async () => {
      setup = await startSetup(proxy, 'paths');
      await setup.portal.admin.apps.create({ name: 'root', url: `${setup.proxyUrl}/` });
      await setup.portal.admin.apps.create({ name: 'grafana', url: `${setup.proxyUrl}/grafana/`, requestable: true });
      nobody = await setup.portal.createUser();
    });
    afterAll(async () => setup?.stop());

    it('names a requestable app on the denied page, and nothing for one the user may not ask for', async () => {
      const requestable = await rawGet(setup.proxyUrl, '/grafana/dashboards', { ...PAGE, ...cookie(nobody.token) });
      expect(requestable.status).toBe(302);
      expect(requestable.headers.location).toBe(`${setup.portal.url}/auth/#/denied/grafana`);
      const plain = await rawGet(setup.proxyUrl, '/', { ...PAGE, ...cookie(nobody.token) });
      expect(plain.status).toBe(302);
      expect(plain.headers.location).toBe(`${setup.portal.url}/auth/#/denied`);
      expect((await rawGet(setup.proxyUrl, '/', { accept: '*/*', ...cookie(nobody.token) })).status).toBe(403);
      expect(setup.apps.map((app) => app.hits())).toEqual([0, 0]);
    });
  });
}
