import { describe, expect, it } from "vitest";
import { clientIp, clientKey } from "@/lib/http/client-ip";

const from = (xff: string) => clientIp(new Headers({ "x-forwarded-for": xff }));

describe("clientIp", () => {
  it("takes the last X-Forwarded-For entry: the one our server or trusted proxy wrote", () => {
    expect(from("6.6.6.6, 203.0.113.9")).toBe("203.0.113.9");
    expect(from("203.0.113.9")).toBe("203.0.113.9");
    expect(clientIp(new Headers())).toBe("unknown");
  });

  it("keys an IPv6 client by its /64: every address of one /64 is one client", () => {
    const key = "2001:db8:1:2::/64";
    for (const address of [
      "2001:db8:1:2::1",
      "2001:db8:1:2:ffff:ffff:ffff:ffff",
      "2001:0DB8:0001:0002:abcd::9",
      "[2001:db8:1:2::7]:443",
      "2001:db8:1:2::1%eth0",
    ]) {
      expect(from(`6.6.6.6, ${address}`), address).toBe(key);
    }
    expect(from("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(from("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(from("::1")).toBe("0:0:0:0::/64");
  });

  it("counts an IPv4-mapped IPv6 address as the IPv4 address, in every spelling", () => {
    for (const address of [
      "::ffff:203.0.113.9",
      "::FFFF:cb00:7109",
      "0:0:0:0:0:ffff:203.0.113.9",
      "[::ffff:203.0.113.9]:8080",
      "203.0.113.9:8080",
    ]) {
      expect(from(address), address).toBe("203.0.113.9");
    }
  });

  it("leaves what is not an address as it is", () => {
    expect(clientKey("unknown")).toBe("unknown");
    expect(clientKey("2001:db8::zz")).toBe("2001:db8::zz");
  });
});
