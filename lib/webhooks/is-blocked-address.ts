import { BlockList, isIP } from "node:net";

// Destinations an owner-supplied URL must never reach: this host, the private network around it,
// cloud metadata endpoints and addresses that are not unicast on the public internet.
const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network"; 0.0.0.0 reaches the local host on Linux
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, includes the metadata endpoint 169.254.169.254
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 3], // multicast, reserved and broadcast (224.0.0.0–255.255.255.255)
] as const) {
  blocked.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["fc00::", 7], // unique local, includes AWS metadata fd00:ec2::254
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated, still routed inside some networks)
  ["ff00::", 8], // multicast
  // Tunnels and translators that carry an IPv4 address inside (6to4 relays, Teredo servers,
  // local NAT64 gateways, SIIT): a relay on the path could deliver them to a private IPv4 host,
  // and no owner needs them for a webhook, so they are refused whole.
  ["2002::", 16], // 6to4
  ["2001::", 32], // Teredo
  ["64:ff9b:1::", 48], // local-use NAT64 (RFC 8215)
  ["::ffff:0:0:0", 96], // IPv4-translated (SIIT, RFC 6145)
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

export function isBlockedAddress(ip: string): boolean {
  // A zone index ("fe80::1%eth0") only names the interface; the address is what matters.
  const address = ip.split("%")[0];
  const version = isIP(address);
  // Anything that is not an IP address cannot be vouched for.
  if (version === 0) return true;
  if (version === 4) return blocked.check(address, "ipv4");
  if (blocked.check(address, "ipv6")) return true;
  const embedded = embeddedIPv4(address);
  return embedded !== null && blocked.check(embedded, "ipv4");
}

// IPv4-mapped (::ffff:0:0/96), IPv4-compatible (::/96) and well-known NAT64 (64:ff9b::/96) are
// delivered to their last 32 bits, so they are judged as that IPv4 address. This also covers the
// unspecified "::" and loopback "::1", which fall in ::/96 and map into 0.0.0.0/8.
function embeddedIPv4(ipv6: string): string | null {
  const groups = expandIPv6(ipv6);
  const head = groups.slice(0, 5);
  const sixth = groups[5];
  const mappedOrCompatible = head.every((g) => g === 0) && (sixth === 0xffff || sixth === 0);
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0);
  if (!mappedOrCompatible && !nat64) return null;
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
