import { isIP } from "node:net";
import { env } from "@/lib/env";

// The client address rate limits are keyed on. On Vercel the platform sets x-real-ip itself.
// Elsewhere our server (scripts/server.ts) overwrites X-Forwarded-For with the socket address
// unless TRUST_PROXY=1, in which case the proxy in front appended the client it saw as the last
// entry; earlier entries are whatever the client claimed, so they are never used.
//
// One client is one IPv4 address or one IPv6 /64: a single home or server is handed a whole /64,
// so keying on full IPv6 addresses would give it 2^64 fresh buckets. IPv6 addresses therefore
// come back as their network ("2001:db8:1:2::/64"), and IPv4-mapped ones (::ffff:1.2.3.4, as a
// dual-stack socket reports IPv4 clients) as the IPv4 address.
export function clientIp(headers: Headers): string {
  if (env.VERCEL) {
    const real = headers.get("x-real-ip")?.trim();
    if (real) return clientKey(real);
  }
  const forwarded = headers.get("x-forwarded-for");
  const last = forwarded?.split(",").at(-1)?.trim();
  return last ? clientKey(last) : "unknown";
}

// Anything that is not an address (it cannot come from a client: our server or proxy wrote it)
// is kept as it is.
export function clientKey(address: string): string {
  const ip = stripPort(address);
  const version = isIP(ip);
  if (version === 4) return ip;
  if (version !== 6) return address;
  const groups = ipv6Groups(ip);
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join(".");
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

// "[2001:db8::1]:443", "2001:db8::1%eth0" and "203.0.113.9:443" name the same hosts as the bare
// addresses; some proxies write the port or zone along.
function stripPort(address: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) return bracketed[1].split("%")[0];
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(address);
  if (v4WithPort) return v4WithPort[1];
  return address.split("%")[0];
}

// The eight 16-bit groups of an IPv6 address. The URL parser first rewrites it canonically (a
// dotted tail "::ffff:1.2.3.4" becomes "::ffff:102:304"), so only hex groups remain.
function ipv6Groups(ip: string): number[] {
  const canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  const [left, right] = canonical.split("::");
  const parse = (part: string | undefined) => (part ? part.split(":").map((g) => parseInt(g, 16)) : []);
  const head = parse(left);
  const tail = parse(right);
  return [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}
