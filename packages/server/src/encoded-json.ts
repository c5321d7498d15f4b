/**
 * A JSON answer encoded once (docs/performance.md): a route that answers the same unchanged value
 * over and over (the launcher's app list, remembered until the database changes) sends the same
 * text, and the same brotli or gzip bytes, made at the first request that needed them.
 * middleware/compress-json.ts sends it; any other body is encoded there on each request.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';

export type Compression = 'br' | 'gzip';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
// Quality 4 compresses a JSON page about as well as gzip -6 at a fraction of brotli's default cost.
const BROTLI_OPTIONS = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };

function compress(utf8: Buffer, encoding: Compression): Promise<Buffer> {
  return encoding === 'br' ? brotli(utf8, BROTLI_OPTIONS) : gzip(utf8);
}

export class EncodedJson {
  /**
   * The JSON text's UTF-8 bytes. Sent as they are: a string body would be measured twice more
   * on every answer (Koa's Content-Length, then Node's write), which for a remembered page of the
   * event log was 8 % of its CPU (docs/performance.md).
   */
  readonly utf8: Buffer;
  private readonly compressed = new Map<Compression, Promise<Buffer>>();

  constructor(value: unknown) {
    this.utf8 = Buffer.from(JSON.stringify(value), 'utf8');
  }

  get bytes(): number {
    return this.utf8.length;
  }

  compressedAs(encoding: Compression): Promise<Buffer> {
    let bytes = this.compressed.get(encoding);
    if (!bytes) {
      bytes = compress(this.utf8, encoding);
      // A failure is not remembered: the next request tries again.
      bytes.catch(() => this.compressed.delete(encoding));
      this.compressed.set(encoding, bytes);
    }
    return bytes;
  }
}

const encodings = new WeakMap<object, EncodedJson>();

/**
 * The encoded answer of a value that is shared and never changed (a remembered list): encoded at
 * its first use, the same EncodedJson while the value lives.
 */
export function encodedOnce(value: object): EncodedJson {
  let encoded = encodings.get(value);
  if (!encoded) {
    encoded = new EncodedJson(value);
    encodings.set(value, encoded);
  }
  return encoded;
}
