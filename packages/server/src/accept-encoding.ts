/** Content negotiation on Accept-Encoding (RFC 9110 12.5.3), preferring the smaller encoding on a tie. */
export type Encoding = 'br' | 'gzip' | 'identity';

const BY_SIZE: readonly Encoding[] = ['br', 'gzip', 'identity'];

/**
 * The encoding to answer in among those available: the client's highest q, then br before gzip
 * before identity. Identity is acceptable unless refused (`identity;q=0`, or `*;q=0` without it);
 * undefined when nothing available is acceptable.
 */
export function preferredEncoding(header: string | undefined, available: readonly Encoding[]): Encoding | undefined {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (!name) continue;
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name, Number.isFinite(weight) ? Math.min(Math.max(weight, 0), 1) : 0);
  }
  const weightOf = (encoding: Encoding) => weights.get(encoding) ?? weights.get('*') ?? (encoding === 'identity' ? 1 : 0);
  let best: Encoding | undefined;
  for (const encoding of BY_SIZE) {
    if (!available.includes(encoding) || weightOf(encoding) <= 0) continue;
    if (best === undefined || weightOf(encoding) > weightOf(best)) best = encoding;
  }
  return best;
}
