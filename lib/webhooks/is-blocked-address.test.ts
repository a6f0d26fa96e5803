import { describe, expect, it } from "vitest";
import { isBlockedAddress } from "./is-blocked-address";

// Every IPv4 block refused, with its first and last address: IANA's special-purpose blocks that are
// not globally reachable, the 6to4 relay anycast, multicast and the reserved space above it.
const IPV4_BLOCKS: [string, string, string][] = [
  ["0.0.0.0/8 this network", "0.0.0.0", "0.255.255.255"],
  ["10.0.0.0/8 private", "10.0.0.0", "10.255.255.255"],
  ["100.64.0.0/10 carrier-grade NAT", "100.64.0.0", "100.127.255.255"],
  ["127.0.0.0/8 loopback", "127.0.0.0", "127.255.255.255"],
  ["169.254.0.0/16 link-local and metadata", "169.254.0.0", "169.254.255.255"],
  ["172.16.0.0/12 private", "172.16.0.0", "172.31.255.255"],
  ["192.0.0.0/24 IETF protocol assignments", "192.0.0.0", "192.0.0.255"],
  ["192.0.2.0/24 documentation", "192.0.2.0", "192.0.2.255"],
  ["192.88.99.0/24 6to4 relay anycast", "192.88.99.0", "192.88.99.255"],
  ["192.168.0.0/16 private", "192.168.0.0", "192.168.255.255"],
  ["198.18.0.0/15 benchmarking", "198.18.0.0", "198.19.255.255"],
  ["198.51.100.0/24 documentation", "198.51.100.0", "198.51.100.255"],
  ["203.0.113.0/24 documentation", "203.0.113.0", "203.0.113.255"],
  ["224.0.0.0/4 multicast", "224.0.0.0", "239.255.255.255"],
  ["240.0.0.0/4 reserved, and the broadcast address", "240.0.0.0", "255.255.255.255"],
];

// The public addresses just outside those blocks, which must stay reachable.
const IPV4_NEIGHBOURS = [
  "1.0.0.0",
  "9.255.255.255",
  "11.0.0.0",
  "100.63.255.255",
  "100.128.0.0",
  "126.255.255.255",
  "128.0.0.0",
  "169.253.255.255",
  "169.255.0.0",
  "172.15.255.255",
  "172.32.0.0",
  "191.255.255.255",
  "192.0.1.0",
  "192.0.3.0",
  "192.88.98.255",
  "192.88.100.0",
  "192.167.255.255",
  "192.169.0.0",
  "198.17.255.255",
  "198.20.0.0",
  "198.51.99.255",
  "198.51.101.0",
  "203.0.112.255",
  "203.0.114.0",
  "223.255.255.255",
  "8.8.8.8",
  "1.1.1.1",
  // Special-purpose but globally reachable: AS112 and AMT anycast.
  "192.31.196.1",
  "192.52.193.1",
  "192.175.48.1",
];

// Every IPv6 block refused, with its first and last address.
const IPV6_BLOCKS: [string, string, string][] = [
  ["::/128 unspecified", "::", "::"],
  ["::1/128 loopback", "::1", "::1"],
  ["::/96 IPv4-compatible (deprecated)", "::0.0.0.2", "::255.255.255.255"],
  ["::ffff:0:0:0/96 IPv4-translated (SIIT)", "::ffff:0:0.0.0.0", "::ffff:0:255.255.255.255"],
  ["64:ff9b:1::/48 local-use NAT64", "64:ff9b:1::", "64:ff9b:1:ffff:ffff:ffff:ffff:ffff"],
  ["100::/64 discard-only", "100::", "100::ffff:ffff:ffff:ffff"],
  ["100:0:0:1::/64 dummy prefix", "100:0:0:1::", "100:0:0:1:ffff:ffff:ffff:ffff"],
  ["2001::/23 IETF protocol assignments", "2001::", "2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff"],
  ["2001::/32 Teredo", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001:0:ffff:ffff:ffff:ffff:ffff:ffff"],
  ["2001:1::1/128 PCP anycast", "2001:1::1", "2001:1::2"],
  ["2001:2::/48 benchmarking", "2001:2::", "2001:2:0:ffff:ffff:ffff:ffff:ffff"],
  ["2001:3::/32 AMT", "2001:3::", "2001:3:ffff:ffff:ffff:ffff:ffff:ffff"],
  ["2001:10::/28 ORCHID (deprecated)", "2001:10::", "2001:1f:ffff:ffff:ffff:ffff:ffff:ffff"],
  ["2001:20::/28 ORCHIDv2", "2001:20::", "2001:2f:ffff:ffff:ffff:ffff:ffff:ffff"],
  ["2001:30::/28 DRIP entity tags", "2001:30::", "2001:3f:ffff:ffff:ffff:ffff:ffff:ffff"],
  ["2001:db8::/32 documentation", "2001:db8::", "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff"],
  ["2002::/16 6to4", "2002::", "2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
  ["3fff::/20 documentation", "3fff::", "3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff"],
  ["5f00::/16 SRv6 SIDs", "5f00::", "5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
  ["fc00::/7 unique local (AWS metadata fd00:ec2::254)", "fc00::", "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
  ["fe80::/10 link-local", "fe80::", "febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
  ["fec0::/10 site-local (deprecated)", "fec0::", "feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
  ["ff00::/8 multicast", "ff00::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
  ["outside 2000::/3, not allocated", "4000::1", "8000::1"],
];

const IPV6_NEIGHBOURS = [
  "2000::",
  "2001:200::", // WIDE, right after 2001::/23
  "2001:db7:ffff:ffff:ffff:ffff:ffff:ffff",
  "2001:db9::",
  "2001:4860:4860::8888",
  "2003::1", // Deutsche Telekom, right after 6to4
  "2606:4700::1111",
  "2600:1f18::1",
  "2620:4f:8000::1", // AS112, special-purpose but globally reachable
  "3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
  "3fff:1000::", // right after 3fff::/20
];

describe("isBlockedAddress", () => {
  describe.each(IPV4_BLOCKS)("refuses %s", (_name, first, last) => {
    it.each([first, last])("%s", (ip) => expect(isBlockedAddress(ip)).toBe(true));
    // An IPv4-mapped address is connected to as the IPv4 address; the well-known NAT64 prefix is
    // translated to it by the network's gateway. Both are judged as that address.
    it.each([`::ffff:${first}`, `::ffff:${last}`, `64:ff9b::${first}`, `64:ff9b::${last}`])("%s", (ip) =>
      expect(isBlockedAddress(ip)).toBe(true),
    );
  });

  it.each(IPV4_NEIGHBOURS)("allows %s, and its IPv4-mapped and NAT64 forms", (ip) => {
    expect(isBlockedAddress(ip)).toBe(false);
    expect(isBlockedAddress(`::ffff:${ip}`)).toBe(false);
    expect(isBlockedAddress(`64:ff9b::${ip}`)).toBe(false);
  });

  describe.each(IPV6_BLOCKS)("refuses %s", (_name, first, last) => {
    it.each([first, last])("%s", (ip) => expect(isBlockedAddress(ip)).toBe(true));
  });

  it.each(IPV6_NEIGHBOURS)("allows %s", (ip) => {
    expect(isBlockedAddress(ip)).toBe(false);
  });

  it.each([
    "::ffff:7f00:1", // 127.0.0.1 in hex groups
    "0:0:0:0:0:ffff:127.0.0.1",
    "::FFFF:A9FE:A9FE", // 169.254.169.254, upper case
    "64:ff9b::a9fe:a9fe",
    "::ffff:c000:201", // 192.0.2.1
    "::ffff:c058:6301", // 192.88.99.1
    "2001:DB8::1",
    "fe80::1%eth0", // a zone index names only the interface
    "2002:c0a8:101::1", // 6to4 of 192.168.1.1
    "2002:808:808::1", // 6to4 of 8.8.8.8: refused whole, whatever it carries
    "::ffff:0:808:808", // IPv4-translated 8.8.8.8: refused whole too
  ])("refuses the spelling %s", (ip) => {
    expect(isBlockedAddress(ip)).toBe(true);
  });

  it.each(["not an address", "", "1.2.3", "256.0.0.1", "[::1]", "localhost", "2001:db8::1/32"])("refuses %j, which is no address", (ip) => {
    expect(isBlockedAddress(ip)).toBe(true);
  });
});
