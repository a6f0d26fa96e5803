export {};

// One round of the per-minute availability probe in a process of its own, as the cron's function
// would make it, for bench/probe-rentals.ts, which bundles this file and runs it with plain Node:
// samples its own memory while probeRentals() works and prints one JSON line
// { wallMs, rssStart, rssPeak, summary } (memory in bytes).
const { probeRentals } = await import("@/lib/availability/probe-rentals");
const { db } = await import("@/lib/db");

await db.$queryRaw`SELECT 1`; // connected, as a warm function is
const atStart = process.memoryUsage();
let rssPeak = atStart.rss;
const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 50);
// Failed probes are not logged one by one, but keep the output to the figures anyway.
const log = console.log;
console.log = () => {};
const started = performance.now();
const summary = await probeRentals();
const wallMs = performance.now() - started;
console.log = log;
clearInterval(sampler);
rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
await db.$disconnect();
console.log(JSON.stringify({ wallMs, rssStart: atStart.rss, rssPeak, summary }));
process.exit(0);
