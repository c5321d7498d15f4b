/**
 * WORKERS > 1: several server processes on one port (node:cluster). A change made through one
 * worker must be seen by the others at once (docs/operations.md), so a worker that clears its
 * auth cache after a write asks every other worker to clear theirs, through the primary, and
 * answers its request only once they all have (or are gone, or a bound has passed).
 */
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

const FORGET = 'tools-portal:forget';
const FORGOTTEN = 'tools-portal:forgotten';
/** A worker that does not answer within this long is stuck or dying: the writer goes on without it. */
const FORGET_TIMEOUT_MS = 2000;

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
      pending.set(key, {
        origin: worker,
        originId: message.id,
        waiting: new Set(others.map((other) => other.id)),
        timer: setTimeout(() => settle(key), FORGET_TIMEOUT_MS),
      });
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

const METRICS = 'tools-portal:metrics';
const METRICS_ANSWER = 'tools-portal:metrics-answer';

/**
 * Primary: answers a worker's request for the metrics of every worker, summed (prom-client's
 * AggregatorRegistry asks each worker for its registry over the same IPC).
 */
export function relayMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker: Worker, message: Message) => {
    if (message?.type !== METRICS || typeof message.id !== 'string') return;
    aggregator.clusterMetrics().then(
      (text) => worker.isConnected() && worker.send({ type: METRICS_ANSWER, id: message.id, text }),
      (error: Error) => worker.isConnected() && worker.send({ type: METRICS_ANSWER, id: message.id, error: error.message }),
    );
  });
}

/**
 * Worker: offers `registry` to the primary's aggregation, and answers the function that fetches
 * the whole instance's metrics through the primary. Without that, each scrape would see the
 * counters of whichever worker took the connection, and Prometheus would read counter resets.
 */
export function joinMetrics(registry: Registry): () => Promise<string> {
  // Creating one registers the worker's side of prom-client's cluster protocol.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
  const waiting = new Map<string, (answer: { text?: string; error?: string }) => void>();
  let counter = 0;
  process.on('message', (message: Message & { text?: string; error?: string }) => {
    if (message?.type === METRICS_ANSWER && typeof message.id === 'string') waiting.get(message.id)?.(message);
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = `${process.pid}-${++counter}`;
      const timer = setTimeout(() => settle({ error: 'the primary did not answer' }), 10_000);
      const settle = (answer: { text?: string; error?: string }) => {
        waiting.delete(id);
        clearTimeout(timer);
        if (answer.text !== undefined) resolve(answer.text);
        else reject(new Error(`cluster metrics: ${answer.error}`));
      };
      waiting.set(id, settle);
      process.send?.({ type: METRICS, id });
    });
}
