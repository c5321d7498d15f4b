/**
 * What the proxy tests put behind nginx, Caddy and HAProxy: small apps that answer with what
 * reached them (their name, the raw path, identity headers, cookies, Authorization), and raw
 * requests (HTTP/1.1 and h2c) whose paths no client library has normalized first.
 */
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';

export interface EchoApp {
  name: string;
  port: number;
  hits(): number;
  close(): Promise<void>;
}

interface Echo {
  app: string;
  path: string;
  user: string | null;
  email: string | null;
  name: string | null;
  groups: string | null;
  roles: string | null;
  cookie: string | null;
  authorization: string | null;
}

export function startEchoApp(name: string): Promise<EchoApp> {
  let hits = 0;
  const server = http.createServer((request, response) => {
    hits++;
    const pick = (header: string) => {
      const value = request.headers[header];
      return Array.isArray(value) ? value.join('; ') : (value ?? null);
    };
    const echo: Echo = {
      app: name,
      path: request.url ?? '',
      user: pick('remote-user'),
      email: pick('remote-email'),
      name: pick('remote-name'),
      groups: pick('remote-groups'),
      roles: pick('remote-roles'),
      cookie: pick('cookie'),
      authorization: pick('authorization'),
    };
    response.setHeader('content-type', 'application/json');
    response.setHeader('x-echo-app', name);
    response.end(JSON.stringify(echo));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        name,
        port: (server.address() as AddressInfo).port,
        hits: () => hits,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    );
  });
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** What the app answered, when the request reached one. */
  echo: Echo | undefined;
}

/** A GET with `path` sent exactly as given; `headers` may repeat a name as an array. */
export function rawGet(baseUrl: string, path: string, headers: Record<string, string | string[]> = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: hostname, port, path, method: 'GET', headers, insecureHTTPParser: true }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => {
        const echo = response.headers['x-echo-app'] ? (JSON.parse(body) as Echo) : undefined;
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body, echo });
      });
    });
    request.on('error', reject);
    request.end();
  });
}

/**
 * A GET over HTTP/2 with prior knowledge (h2c), `path` sent exactly as given; `authority` replaces
 * the `:authority` the URL names (as a forged `Host`). A header may repeat as an array.
 */
export function h2Get(baseUrl: string, path: string, headers: Record<string, string | string[]> = {}, authority?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(baseUrl);
    session.once('error', reject);
    const request = session.request({ ':method': 'GET', ':path': path, ...(authority ? { ':authority': authority } : {}), ...headers });
    let status = 0;
    let answerHeaders: http.IncomingHttpHeaders = {};
    let body = '';
    request.setEncoding('utf8');
    request.on('response', (received) => {
      status = Number(received[':status']);
      answerHeaders = received as http.IncomingHttpHeaders;
    });
    request.on('data', (chunk) => (body += chunk));
    request.once('error', (error) => {
      session.close();
      reject(error);
    });
    request.once('end', () => {
      session.close();
      const echo = answerHeaders['x-echo-app'] ? (JSON.parse(body) as Echo) : undefined;
      resolve({ status, headers: answerHeaders, body, echo });
    });
    request.end();
  });
}

/** Paths that try to be judged as app `from` while a proxy or app reads them as `to`. */
export function pathTricks(from: string, to: string): string[] {
  return [
    `/${from}/../${to}/data`,
    `/${from}/..%2f${to}/data`,
    `/${from}/..%2F${to}/data`,
    `/${from}%2f..%2f${to}/data`,
    `/${from}/%2e%2e/${to}/data`,
    `/${from}/%2E%2E/${to}/data`,
    `/${from}/.%2e/${to}/data`,
    `/${from}/%2e%2e%2f${to}/data`,
    `/${from}/..%5c${to}/data`,
    `/${from}/..\\${to}/data`,
    `/${from}/..%252f${to}/data`,
    `/${from}/..%255c${to}/data`,
    `/${from}/%252e%252e/${to}/data`,
    `/${from}/..;/${to}/data`,
    `/${from};/../${to}/data`,
    `/${from}/..%3b/${to}/data`,
    `/${from}/%c0%ae%c0%ae/${to}/data`,
    `/${from}/%c0%ae%c0%ae%c0%af${to}/data`,
    `/${from}/%e0%80%ae%e0%80%ae/${to}/data`,
    `/${from}/..%00/${to}/data`,
    `/${from}/%00/../../${to}/data`,
    `/${from}//../${to}/data`,
    `/${from}/x/../../${to}/data`,
    `/${from}/x#/../../${to}/data`,
    `/${from}%3f/../${to}/data`,
    `/../${to}/data`,
    `//${to}/data`,
    `/${to.toUpperCase()}/data`,
    `/${to[0].toUpperCase()}${to.slice(1)}/data`,
    `/%${to.charCodeAt(0).toString(16)}${to.slice(1)}/data`,
    `/${from}/%u002e%u002e/${to}/data`,
    `/${from}/%zz/../../${to}/data`,
  ];
}
