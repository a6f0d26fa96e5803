import { describe, expect, it } from "vitest";
import { isBlockedAddress } from "./is-blocked-address";

describe("isBlockedAddress", () => {
  it.each([
    "10.0.0.1",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "127.0.0.1",
    "127.255.255.254",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "192.0.0.1",
    "198.18.0.1",
    "224.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:169.254.169.254",
    "::127.0.0.1",
    "64:ff9b::10.0.0.1",
    "64:ff9b::a9fe:a9fe",
    "fc00::1",
    "fd12::1",
    "fd00:ec2::254",
    "fe80::1",
    "fe80::1%eth0",
    "ff02::1",
    // Tunnels and translators, refused whole whatever IPv4 address they carry:
    "2002:c0a8:101::1", // 6to4 of 192.168.1.1
    "2002:808:808::1", // 6to4 of 8.8.8.8
    "2002::", // 6to4, first address
    "2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff", // 6to4, last address
    "2001:0:4136:e378:8000:63bf:3fff:fdd2", // Teredo
    "2001::1",
    "2001:0:ffff:ffff:ffff:ffff:ffff:ffff", // Teredo, last address
    "64:ff9b:1::a00:1", // local-use NAT64
    "64:ff9b:1:ffff:ffff:ffff:ffff:ffff",
    "::ffff:0:7f00:1", // IPv4-translated 127.0.0.1
    "::ffff:0:808:808", // IPv4-translated 8.8.8.8
    "::ffff:0:10.0.0.1",
    "fec0::1", // site-local
    "feff:ffff::1",
    "not an address",
  ])("blocks %s", (ip) => {
    expect(isBlockedAddress(ip)).toBe(true);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "2606:4700::1111",
    "172.32.0.1",
    "100.128.0.1",
    "::ffff:8.8.8.8",
    "64:ff9b::8.8.8.8",
    "2001:4860:4860::8888",
    // Public addresses next to the tunnel ranges (2001:200::/23 is WIDE, 2003::/19 Telekom):
    "2001:200::1",
    "2003::1",
    "2600:1f18::1",
  ])("allows %s", (ip) => {
    expect(isBlockedAddress(ip)).toBe(false);
  });
});
