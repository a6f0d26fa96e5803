import { BlockList, isIP } from "node:net";

// Destinations an owner-supplied URL must never reach: this host, the private network around it,
// cloud metadata endpoints, and every address that is not globally reachable unicast. Compared
// with IANA's IPv4 and IPv6 Special-Purpose Address Registries: each block whose "Globally
// Reachable" is False is refused, and so are the relays, tunnels and translators that could carry
// a call on to such an address (docs/webhooks.md; why a list of our own: docs/decisions.md).
const blockedIPv4 = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network"; 0.0.0.0 reaches the local host on Linux
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT (shared address space)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, includes the metadata endpoint 169.254.169.254
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments (DS-Lite, NAT64 discovery, PCP and TURN anycast)
  ["192.0.2.0", 24], // documentation (TEST-NET-1)
  ["192.88.99.0", 24], // 6to4 relay anycast (deprecated): a relay forwards to whatever it is given
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation (TEST-NET-2)
  ["203.0.113.0", 24], // documentation (TEST-NET-3)
  ["224.0.0.0", 3], // multicast 224/4, reserved 240/4 and the limited broadcast 255.255.255.255
] as const) {
  blockedIPv4.addSubnet(network, prefix, "ipv4");
}

// Only 2000::/3 is allocated as global unicast; everything else (loopback, unique local, link- and
// site-local, multicast, discard-only 100::/64, the dummy prefix 100:0:0:1::/64, SRv6 SIDs 5f00::/16,
// local-use NAT64 64:ff9b:1::/48, IPv4-compatible ::/96, IPv4-translated ::ffff:0:0:0/96, what
// IANA may set aside next) is refused but for the two forms that carry a public IPv4 address
// (embeddedIPv4 below). Inside 2000::/3, these are not for webhooks:
const globalUnicast = new BlockList();
globalUnicast.addSubnet("2000::", 3, "ipv6");
const blockedIPv6 = new BlockList();
for (const [network, prefix] of [
  // IETF protocol assignments, refused whole: Teredo 2001::/32 (tunnels to IPv4), benchmarking
  // 2001:2::/48, ORCHID 2001:10::/28 and ORCHIDv2 2001:20::/28 and DRIP 2001:30::/28 (identifiers,
  // not routable), and anycast services (PCP, TURN, AMT, AS112) that no webhook lives on.
  ["2001::", 23],
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4: a relay on the path could deliver it to a private IPv4 host
  ["3fff::", 20], // documentation (RFC 9637)
] as const) {
  blockedIPv6.addSubnet(network, prefix, "ipv6");
}

export function isBlockedAddress(ip: string): boolean {
  // A zone index ("fe80::1%eth0") only names the interface; the address is what matters.
  const address = ip.split("%")[0];
  const version = isIP(address);
  // Anything that is not an IP address cannot be vouched for.
  if (version === 0) return true;
  if (version === 4) return blockedIPv4.check(address, "ipv4");
  const embedded = embeddedIPv4(address);
  if (embedded !== null) return blockedIPv4.check(embedded, "ipv4");
  return !globalUnicast.check(address, "ipv6") || blockedIPv6.check(address, "ipv6");
}

// IPv4-mapped (::ffff:0:0/96) addresses are connected to as their last 32 bits, and the
// well-known NAT64 prefix (64:ff9b::/96) is translated to them by the network's gateway (an
// IPv6-only network's DNS64 hands out such addresses for every IPv4-only host), so both are judged
// as that IPv4 address.
function embeddedIPv4(ipv6: string): string | null {
  const groups = expandIPv6(ipv6);
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0);
  if (!mapped && !nat64) return null;
  const [hi, lo] = [groups[6], groups[7]];
  return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
}

// The eight 16-bit groups of an IPv6 address. The URL parser first rewrites any dotted tail
// ("::ffff:127.0.0.1" → "::ffff:7f00:1"), so only hex groups remain.
function expandIPv6(ipv6: string): number[] {
  const canonical = new URL(`http://[${ipv6}]/`).hostname.slice(1, -1);
  const [left, right] = canonical.split("::");
  const parse = (part: string | undefined) => (part ? part.split(":").map((g) => parseInt(g, 16)) : []);
  const head = parse(left);
  const tail = parse(right);
  return [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}
