/**
 * GET /api/docs: the OpenAPI document made readable by Swagger UI (swagger-ui-dist, served from
 * this server, nothing from elsewhere). Swagger UI sets inline styles, so this page alone gets a
 * CSP allowing them (`style-src 'self' 'unsafe-inline'`); scripts stay `'self'` only.
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import type { Context, Next } from 'koa';
import { contentSecurityPolicy } from './middleware/security-headers.js';
import { fileFrom, serveWebFile, type WebFile } from './static-files.js';

const API_DOCS_PATH = '/api/docs';

const API_DOCS_CSP = contentSecurityPolicy("'self' 'unsafe-inline'");

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tools-Portal REST API</title>
<link rel="stylesheet" href="${API_DOCS_PATH}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${API_DOCS_PATH}/swagger-ui-bundle.js"></script>
<script src="${API_DOCS_PATH}/start.js"></script>
</body>
</html>
`;

// In a file of its own: the page's CSP allows no inline script.
const START = `window.ui = SwaggerUIBundle({ url: '/api/auth/v1/openapi.json', dom_id: '#swagger-ui', deepLinking: true });\n`;

const FROM_PACKAGE = ['swagger-ui.css', 'swagger-ui-bundle.js'];

function loadDocsFiles(): Map<string, WebFile> {
  const root = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const files = new Map<string, WebFile>();
  files.set('index.html', fileFrom('index.html', Buffer.from(PAGE)));
  files.set('start.js', fileFrom('start.js', Buffer.from(START)));
  for (const name of FROM_PACKAGE) files.set(name, fileFrom(name, fs.readFileSync(path.join(root, name))));
  return files;
}

/** Serves the page and its files; read and compressed on the first visit, not at every start. */
export function apiDocs() {
  let files: Map<string, WebFile> | undefined;
  return async function serveApiDocs(ctx: Context, next: Next): Promise<void> {
    if (ctx.path !== API_DOCS_PATH && !ctx.path.startsWith(`${API_DOCS_PATH}/`)) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === API_DOCS_PATH) return ctx.redirect(`${API_DOCS_PATH}/`);
    files ??= loadDocsFiles();
    if (!serveWebFile(ctx, files, ctx.path.slice(API_DOCS_PATH.length + 1))) return next();
    ctx.state.route = `${API_DOCS_PATH}/`;
    ctx.set('Content-Security-Policy', API_DOCS_CSP);
  };
}
