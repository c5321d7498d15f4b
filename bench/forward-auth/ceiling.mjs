// Row 1 of forward-auth.bench.mjs: the ceiling. A bare node:http server answering a forward-auth
// question from an in-memory map: no framework, no database. Prints {"url"} on its first line.
import http from 'node:http';

const sessions = new Map([[process.env.BENCH_TOKEN, { email: 'bench@example.com', name: 'Bench', client: 'Bench' }]]);

const server = http.createServer((request, response) => {
  const match = /(?:^|;\s*)accesstoken=([^;]+)/.exec(request.headers.cookie ?? '');
  const user = match ? sessions.get(match[1]) : undefined;
  if (!user) {
    response.writeHead(401).end();
    return;
  }
  response.writeHead(200, { 'remote-user': user.email, 'remote-email': user.email, 'remote-name': user.name, 'remote-groups': user.client }).end();
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
