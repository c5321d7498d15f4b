/**
 * One attempt to deliver a webhook: a POST to the checked addresses of its URL (destinations.ts),
 * redirects not followed, 5 seconds in all, at most 64 KB of the answer read.
 */
import http from 'node:http';
import https from 'node:https';
import { pinnedLookup, resolveDestination } from './destinations.js';

export const DELIVERY_TIMEOUT_MS = 5_000;
export const MAX_ANSWER_BYTES = 64 * 1024;
// How much of a refusing answer's body the delivery's error keeps.
const ERROR_SNIPPET = 200;

export interface PostOutcome {
  /** The receiver's status; null when it did not answer. */
  code: number | null;
  durationMs: number;
  /** Why the attempt failed; null when the answer was 2xx. */
  error: string | null;
}

export interface WebhookPost {
  url: string;
  headers: Record<string, string>;
  body: string;
  allowLoopback: boolean;
}

const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

export async function postWebhook({ url, headers, body, allowLoopback }: WebhookPost, clock: () => number = Date.now): Promise<PostOutcome> {
  const started = clock();
  const signal = AbortSignal.timeout(DELIVERY_TIMEOUT_MS);
  const outcome = (code: number | null, error: string | null): PostOutcome => ({ code, durationMs: Math.max(0, clock() - started), error });
  try {
    const target = new URL(url);
    const addresses = await resolveDestination(target, { allowLoopback, timeoutMs: DELIVERY_TIMEOUT_MS });
    const { status, answer } = await send(target, { headers, body, signal, lookup: pinnedLookup(addresses) });
    if (status >= 200 && status < 300) return outcome(status, null);
    if (status >= 300 && status < 400) return outcome(status, `answered ${status}: redirects are not followed`);
    const snippet = oneLine(answer.subarray(0, ERROR_SNIPPET).toString('utf8'));
    return outcome(status, `answered ${status}${snippet ? `: ${snippet}` : ''}`);
  } catch (error) {
    const message = signal.aborted ? `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s` : (error as Error).message || String(error);
    return outcome(null, oneLine(message));
  }
}

function send(
  target: URL,
  { headers, body, signal, lookup }: { headers: Record<string, string>; body: string; signal: AbortSignal; lookup: ReturnType<typeof pinnedLookup> },
): Promise<{ status: number; answer: Buffer }> {
  const bytes = Buffer.from(body, 'utf8');
  const request = (target.protocol === 'https:' ? https : http).request(target, {
    method: 'POST',
    headers: { ...headers, 'content-length': String(bytes.length) },
    signal,
    lookup: lookup as never,
    agent: false,
  });
  return new Promise((resolve, reject) => {
    request.on('error', reject);
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let read = 0;
      const done = () => resolve({ status: response.statusCode ?? 0, answer: Buffer.concat(chunks) });
      response.on('data', (chunk: Buffer) => {
        if (read >= MAX_ANSWER_BYTES) return;
        chunks.push(chunk.subarray(0, MAX_ANSWER_BYTES - read));
        read += chunk.length;
        // The status is what counts: the rest of a long answer is not read.
        if (read >= MAX_ANSWER_BYTES) {
          response.destroy();
          done();
        }
      });
      response.on('end', done);
      response.on('error', (error) => (read >= MAX_ANSWER_BYTES ? done() : reject(error)));
    });
    request.end(bytes);
  });
}
