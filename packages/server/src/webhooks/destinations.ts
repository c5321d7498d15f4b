/**
 * Where a webhook may deliver (docs/webhooks.md, Destinations): receivers often sit on the
 * company's private network, so private addresses are fine; loopback addresses (the portal's own
 * machine) only with WEBHOOK_ALLOW_LOOPBACK, link-local ones (cloud metadata at 169.254.169.254),
 * multicast and broadcast never. The check is on the addresses the name resolves to, at creation
 * and at every delivery, and the delivery connects to exactly the addresses checked (so a name
 * that resolves elsewhere a moment later, DNS rebinding, cannot slip past).
 */
import dns from 'node:dns';
import ipaddr from 'ipaddr.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Why a destination is refused: the message names the URL's host and the address. */
export class DestinationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DestinationError';
  }
}

// IPv6 ranges that carry an IPv4 address in their last 32 bits, which a gateway may translate to.
const EMBEDDING_IPV4 = new Set(['ipv4Mapped', 'rfc6052', 'rfc6145']);

/** Why an address is no destination, or null. */
export function addressProblem(text: string, allowLoopback: boolean): string | null {
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.parse(text.replace(/%.*$/, ''));
  } catch {
    return `${text} is not an IP address`;
  }
  if (address.kind() === 'ipv6' && EMBEDDING_IPV4.has(address.range())) {
    const bytes = address.toByteArray().slice(-4);
    return addressProblem(bytes.join('.'), allowLoopback);
  }
  const range = address.range();
  if (range === 'loopback' || range === 'unspecified') {
    return allowLoopback ? null : `${text} is a loopback address (allowed only with WEBHOOK_ALLOW_LOOPBACK=true)`;
  }
  if (range === 'linkLocal') return `${text} is a link-local address (such as cloud metadata), never a destination`;
  if (range === 'multicast' || range === 'broadcast') return `${text} is a ${range} address`;
  return null;
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * The addresses a webhook URL's host resolves to, every one of them allowed; else a
 * DestinationError saying why. `timeoutMs` bounds the lookup.
 */
export async function resolveDestination(url: URL, { allowLoopback, timeoutMs }: { allowLoopback: boolean; timeoutMs: number }): Promise<ResolvedAddress[]> {
  const host = hostOf(url);
  let addresses: ResolvedAddress[];
  if (ipaddr.isValid(host)) addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }];
  else {
    let timer: NodeJS.Timeout | undefined;
    try {
      const lookup = dns.promises.lookup(host, { all: true, verbatim: true });
      const late = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new DestinationError(`${host} did not resolve within ${timeoutMs} ms`)), timeoutMs);
      });
      addresses = (await Promise.race([lookup, late])) as ResolvedAddress[];
    } catch (error) {
      if (error instanceof DestinationError) throw error;
      throw new DestinationError(`${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    } finally {
      clearTimeout(timer);
    }
  }
  if (addresses.length === 0) throw new DestinationError(`${host} does not resolve`);
  for (const { address } of addresses) {
    const problem = addressProblem(address, allowLoopback);
    if (problem) throw new DestinationError(host === address ? problem : `${host} resolves to ${problem}`);
  }
  return addresses;
}

/**
 * A `lookup` for node:http that answers only the addresses checked: the connection goes where
 * the check looked, whatever the name resolves to by then.
 */
export function pinnedLookup(addresses: ResolvedAddress[]) {
  return (_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };
}
