/**
 * WORKERS > 1: several server processes on one port (node:cluster). A change made through one
 * worker must be seen by the others at once (docs/operations.md), so a worker that clears its
 * auth cache after a write asks every other worker to clear theirs, through the primary, and
 * answers its request only once they all have (or are gone, or a bound has passed).
 */
import cluster, { type Worker } from 'node:cluster';

const FORGET = 'tools-portal:forget';
const FORGOTTEN = 'tools-portal:forgotten';
/** A worker that does not answer within this long is stuck or dying: the writer goes on without it. */
export const FORGET_TIMEOUT_MS = 2000;

interface Message {
  type?: string;
  id?: string;
}

/** Primary: relays each worker's forget to all the others and tells it when they have done it. */
export function relayForgets(): void {
  const pending = new Map<string, { origin: Worker; originId: string; waiting: Set<number>; timer: NodeJS.Timeout }>();
  let counter = 0;
  const settle = (key: string) => {
    const entry = pending.get(key);
    if (!entry) return;
    pending.delete(key);
    clearTimeout(entry.timer);
    if (entry.origin.isConnected()) entry.origin.send({ type: FORGOTTEN, id: entry.originId });
  };
  cluster.on('message', (worker: Worker, message: Message) => {
    if (message?.type === FORGET && typeof message.id === 'string') {
      const others = Object.values(cluster.workers ?? {}).filter((other): other is Worker => !!other && other.id !== worker.id && other.isConnected());
      const key = `relay-${++counter}`;
      pending.set(key, { origin: worker, originId: message.id, waiting: new Set(others.map((other) => other.id)), timer: setTimeout(() => settle(key), FORGET_TIMEOUT_MS) });
      for (const other of others) other.send({ type: FORGET, id: key });
      if (others.length === 0) settle(key);
    } else if (message?.type === FORGOTTEN && typeof message.id === 'string') {
      const entry = pending.get(message.id);
      entry?.waiting.delete(worker.id);
      if (entry && entry.waiting.size === 0) settle(message.id);
    }
  });
  cluster.on('exit', (worker: Worker) => {
    for (const [key, entry] of pending) {
      entry.waiting.delete(worker.id);
      if (entry.waiting.size === 0) settle(key);
    }
  });
}

/**
 * Worker: clears with `clearHere` when another worker asks; answers the function that asks the
 * others (resolved once they have all cleared).
 */
export function joinForgets(clearHere: () => void): () => Promise<void> {
  const waiting = new Map<string, () => void>();
  let counter = 0;
  process.on('message', (message: Message) => {
    if (message?.type === FORGET && typeof message.id === 'string') {
      clearHere();
      process.send?.({ type: FORGOTTEN, id: message.id });
    } else if (message?.type === FORGOTTEN && typeof message.id === 'string') {
      waiting.get(message.id)?.();
    }
  });
  return () =>
    new Promise<void>((resolve) => {
      const id = `${process.pid}-${++counter}`;
      const done = () => {
        waiting.delete(id);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(done, FORGET_TIMEOUT_MS);
      waiting.set(id, done);
      process.send?.({ type: FORGET, id });
    });
}
