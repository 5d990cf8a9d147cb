import ipaddr from 'ipaddr.js';

/**
 * Only public unicast addresses may be fetched. ipaddr.js names every special range (RFC 6890);
 * anything but `unicast` is refused: loopback, private, link-local, CGNAT (carrierGradeNat),
 * unique-local, multicast, unspecified, broadcast, reserved, documentation, benchmarking, 6to4/Teredo
 * (which embed IPv4 addresses) and the IPv4-mapped/-translated IPv6 forms, judged by the IPv4 inside.
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return false;
  let parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    // NAT64 (64:ff9b::/96) carries an IPv4 address in its last 32 bits: judge that address.
    else if (v6.range() === 'rfc6052') {
      const parts = v6.parts;
      parsed = ipaddr.fromByteArray([parts[6]! >> 8, parts[6]! & 255, parts[7]! >> 8, parts[7]! & 255]);
    }
  }
  return parsed.range() === 'unicast';
}
