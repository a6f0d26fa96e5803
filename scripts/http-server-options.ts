import type { ServerOptions } from "node:http";

// How `npm start`'s node:http server (scripts/server.ts) takes connections. A chat holds its
// renter's connection while the owner's webhook thinks (up to WEBHOOK_TIMEOUT_MS, 30 s), so a
// busy instance has thousands open at once, and many arrive together (docs/performance.md, "Slow
// chats under load").

// Connections the kernel completes and queues while the process is busy, before it accepts them.
// Node's default, 511, overflowed when 2,000 chats arrived together: the kernel dropped the rest,
// and their clients saw resets and connect timeouts. The kernel caps the value at
// net.core.somaxconn (4096 by default since Linux 5.4; docs/deployment.md, "Scaling").
export const LISTEN_BACKLOG = 4096;

// An idle keep-alive connection is closed after this long. Node's default, 5 s, is about as long
// as clients keep theirs (undici's fetch: 4 s), so a client that was a little slow reused a
// connection the server was just closing, and its POST failed ("other side closed"; a POST is
// never retried). 65 s outlasts clients and the proxies in front (60 s idle on AWS ALB and
// nginx's upstream keepalive), which then always close first.
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export const SERVER_OPTIONS: ServerOptions = {
  keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
  // Longer than the keep-alive timeout, as Node's documentation asks, and still bounded: a client
  // that sends its headers slowly (a slowloris) is cut off after 66 s.
  headersTimeout: KEEP_ALIVE_TIMEOUT_MS + 1_000,
  // Receiving a whole request (not answering it: a chat's wait is not counted): Node's default,
  // stated, well above the largest body the API takes (256 KiB).
  requestTimeout: 300_000,
};
