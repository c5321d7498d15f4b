/** Routes outside the API: health, the web portal at /auth/, and invitation links. */
import Router from '@koa/router';
import { DEFAULT_REDIRECT } from '@tools-portal/core';
import { registrationTarget } from '../services/users/invites.js';
import { loadWebFiles, serveWebFile } from '../static-files.js';
import type { Deps } from './route.js';

export function portalRouter(deps: Deps): Router {
  const router = new Router({ strict: true });
  const webFiles = loadWebFiles(deps.config.webRoot);

  router.get('/healthz', async (ctx) => {
    try {
      await deps.db.raw('select 1');
      ctx.body = { status: 'ok' };
    } catch {
      ctx.status = 503;
      ctx.body = { status: 'unavailable' };
    }
  });

  router.get('/', (ctx) => ctx.redirect('/auth/'));
  router.get('/auth', (ctx) => ctx.redirect('/auth/'));

  // `{PUBLIC_URL}/{app}/register?token=…`: the set-password screen, then on to that app.
  router.get('/:app/register', async (ctx) => {
    const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
    const appName = ctx.params.app ?? '';
    const redirect = (await registrationTarget(deps.db, token, appName)) ?? DEFAULT_REDIRECT;
    ctx.redirect(`/auth/#/login/${encodeURIComponent(redirect)}/${encodeURIComponent(token)}`);
  });

  router.get('/auth/{*path}', async (ctx, next) => {
    const relative = ctx.path.slice('/auth/'.length);
    if (!serveWebFile(ctx, webFiles, relative)) await next();
  });

  return router;
}
