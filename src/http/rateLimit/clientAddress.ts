import { isIPv6 } from 'node:net';

/**
 * Whom a request is counted against. Behind `trustedProxyHops` proxies that append to
 * X-Forwarded-For (the compose files' HAProxy: 1), the client is the address the outermost trusted
 * proxy saw: the hops-th entry from the right; entries left of it are the client's own say. IPv6
 * clients count per /64, the block one subscriber usually gets (else each address would be a new
 * client).
 */
export function clientAddressOf(
  socketAddress: string | undefined,
  forwardedFor: string | undefined,
  trustedProxyHops: number,
): string {
  let address = socketAddress ?? 'unknown';
  if (trustedProxyHops > 0 && forwardedFor) {
    const hops = forwardedFor
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    address = hops[Math.max(0, hops.length - trustedProxyHops)] ?? address;
  }
  if (address.startsWith('::ffff:') && address.includes('.')) return address.slice(7);
  return isIPv6(address) ? `${expandIPv6(address).slice(0, 4).join(':')}::/64` : address;
}

function expandIPv6(address: string): string[] {
  const [head = '', tail] = address.split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((part) => part.toLowerCase().replace(/^0+(?=.)/, ''));
}
