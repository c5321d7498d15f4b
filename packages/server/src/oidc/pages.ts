/**
 * The OpenID provider's few pages (sign out, signed out, error), in place of oidc-provider's
 * built-in ones that use inline styles: plain HTML with one stylesheet from the portal, within
 * the portal's Content-Security-Policy (middleware/security-headers.ts).
 */
import type { Context } from 'koa';

export const PAGE_CSS_PATH = '/oidc/page.css';

export const PAGE_CSS = `body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f8f9fa;color:#212529;margin:0}
main{max-width:28rem;margin:3rem auto;padding:2rem;background:#fff;border:1px solid #dee2e6;border-radius:.5rem}
h1{font-size:1.5rem;margin:0 0 1rem}p{line-height:1.5}
.actions{display:flex;gap:.5rem;flex-wrap:wrap;margin-top:1.5rem}
button,a.button{font:inherit;padding:.45rem 1rem;border-radius:.375rem;border:1px solid #6c757d;background:#fff;color:#212529;cursor:pointer;text-decoration:none}
button.primary{background:#0d6efd;border-color:#0d6efd;color:#fff}
code{word-break:break-all}
@media (max-width:30rem){main{margin:1rem;padding:1.25rem}}
`;

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The portal as its pages name it: where it is, and what it is called (PORTAL_NAME). */
export interface Site {
  publicUrl: string;
  portalName: string;
}

const backToPortal = (site: Site) =>
  `<div class="actions"><a class="button" href="${escapeHtml(site.publicUrl)}/auth/">Back to ${escapeHtml(site.portalName)}</a></div>`;

function page(site: Site, title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(site.portalName)}</title>
<link rel="stylesheet" href="${PAGE_CSS_PATH}">
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>`;
}

/** RP-initiated logout: `form` is oidc-provider's form (id op.logoutForm, with its xsrf field). */
export function logoutPage(site: Site, { form, clientId }: { form: string; clientId: string | undefined }): string {
  const from = clientId ? ` The app ${escapeHtml(clientId)} asked to sign you out.` : '';
  return page(
    site,
    'Sign out',
    `<p>Sign out of ${escapeHtml(site.portalName)}?${from}</p>
${form}
<div class="actions">
<button class="primary" autofocus type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button>
<button type="submit" form="op.logoutForm">Stay signed in</button>
</div>`,
  );
}

export function signedOutPage(site: Site): string {
  return page(site, 'Signed out', `<p>You are signed out.</p>${backToPortal(site)}`);
}

export function errorPage(site: Site, out: Record<string, string | undefined>): string {
  const what = out.error_description ?? out.error ?? 'the request could not be completed';
  return page(site, 'Sign-in failed', `<p>${escapeHtml(what)}</p><p><code>${escapeHtml(out.error ?? 'error')}</code></p>${backToPortal(site)}`);
}

export function interactionExpiredPage(site: Site): string {
  return page(
    site,
    'Sign-in expired',
    `<p>This sign-in has expired or was started in another browser. Go back to the app and sign in again.</p>${backToPortal(site)}`,
  );
}

/**
 * A form on this page posts to the portal, which then redirects to the app (logout), or posts to
 * the app itself (form_post): browsers apply `form-action` to both, so that one origin is added.
 */
export function withFormAction(ctx: Pick<Context, 'response'>, target: string | undefined): void {
  if (!target) return;
  let origin: string;
  try {
    origin = new URL(target).origin;
  } catch {
    return;
  }
  if (origin === 'null') return;
  const csp = ctx.response.get('Content-Security-Policy');
  if (!csp) return;
  ctx.response.set(
    'Content-Security-Policy',
    csp.replace(/form-action ([^;]*)/, (_all, sources: string) => `form-action ${sources} ${origin}`),
  );
}
