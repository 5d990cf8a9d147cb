import ipaddr from 'ipaddr.js';

/**
 * Only public unicast addresses may be fetched. ipaddr.js names every special range (RFC 6890);
 * anything but `unicast` is refused: loopback, private, link-local, CGNAT (carrierGradeNat),
 * unique-local, multicast, unspecified, broadcast, reserved, documentation, benchmarking, 6to4/Teredo
 * (which embed IPv4 addresses) and the IPv4-mapped/-translated IPv6 forms, judged by the IPv4 inside.
 * The rest of the reserved `::/8` is refused too: ipaddr.js calls the deprecated IPv4-compatible
 * form (`::7f00:1`, what a URL parser makes of `[::127.0.0.1]`) unicast, and some stacks route it.
 */
export function isPublicAddress(address: string): boolean {
  let bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return false;
  // ipaddr.js reads `::8.8.8.8` as `::ffff:8.8.8.8`; the URL parser's spelling is the real address.
  if (bare.includes(':')) {
    if (!URL.canParse(`http://[${bare}]/`)) return false;
    bare = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  }
  let parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    else if (v6.parts[0]! < 0x100) return false;
    // NAT64 (64:ff9b::/96) carries an IPv4 address in its last 32 bits: judge that address.
    else if (v6.range() === 'rfc6052') {
      const parts = v6.parts;
      parsed = ipaddr.fromByteArray([parts[6]! >> 8, parts[6]! & 255, parts[7]! >> 8, parts[7]! & 255]);
    }
  }
  return parsed.range() === 'unicast';
}
