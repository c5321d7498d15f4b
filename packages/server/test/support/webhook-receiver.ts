/**
 * A webhook receiver on 127.0.0.1 for tests (docs/webhooks.md): it records every request (headers
 * and body as received) and answers with the status the test sets, or holds the request unanswered.
 * It can be stopped and started again on the same port (a receiver that is down, then up).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  /** The body parsed: `{type, timestamp, data}`. */
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** The status of the next answers (200 at first); `hold` leaves requests unanswered. */
  answer: number | 'hold';
  /** Requests of one type. */
  ofType(type: string): ReceivedWebhook[];
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function startWebhookReceiver(options: { running?: boolean } = {}): Promise<WebhookReceiver> {
  let server: http.Server | undefined;
  let port = 0;
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    answer: 200,
    ofType: (type) => receiver.received.filter((request) => request.payload.type === type),
    async start() {
      server = http.createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
          receiver.received.push({ headers, body, payload: JSON.parse(body) });
          if (receiver.answer !== 'hold') response.writeHead(receiver.answer, { 'content-type': 'text/plain' }).end(`answered ${receiver.answer}`);
        });
      });
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
      receiver.url = `http://127.0.0.1:${port}/hook`;
    },
    async stop() {
      if (!server) return;
      const closing = server;
      server = undefined;
      await new Promise<void>((resolve) => {
        closing.close(() => resolve());
        closing.closeAllConnections();
      });
    },
  };
  await receiver.start();
  if (options.running === false) await receiver.stop();
  return receiver;
}
