// Adds the lock entries of native packages built for other platforms, which the registry this
// project is installed from does not carry (they answer 404), so npm cannot write them itself.
// Without them `npm ci` refuses the lock as out of sync with package.json. On a platform that
// matches none of them npm skips them (optional, os/cpu set), so nothing is ever downloaded.
// Run after any change to package-lock.json: `npm run lock:platforms`.
import { readFileSync, writeFileSync } from "node:fs";

type LockEntry = { version: string; optionalDependencies?: Record<string, string>; dev?: boolean };
type Platform = { os: string; cpu: string; libc?: string };
const path = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(path, "utf8")) as { packages: Record<string, LockEntry> };

// Package name → the os, cpu (and libc) its own package.json declares.
const platformOf: Array<[RegExp, (m: RegExpMatchArray) => Platform]> = [
  [/^@foundry-rs\/anvil-(darwin|linux|win32)-(amd64|arm64)$/, (m) => ({ os: m[1], cpu: m[2] === "amd64" ? "x64" : m[2] })],
  [/^@next\/swc-(darwin|linux|win32)-(x64|arm64)/, (m) => ({ os: m[1], cpu: m[2] })],
  [/^@biomejs\/cli-(darwin|linux|win32|android)-(x64|arm64)(-musl)?$/, (m) => ({ os: m[1], cpu: m[2], ...(m[3] ? { libc: "musl" } : {}) })],
];

let added = 0;
for (const parent of ["node_modules/@foundry-rs/anvil", "node_modules/next", "node_modules/@biomejs/biome"]) {
  const entry = lock.packages[parent];
  for (const [name, version] of Object.entries(entry?.optionalDependencies ?? {})) {
    const rule = platformOf.find(([pattern]) => pattern.test(name));
    if (!rule || lock.packages[`node_modules/${name}`]) continue;
    const { os, cpu, libc } = rule[1](name.match(rule[0])!);
    lock.packages[`node_modules/${name}`] = {
      version,
      cpu: [cpu],
      ...(entry.dev ? { dev: true } : {}),
      ...(libc ? { libc: [libc] } : {}),
      optional: true,
      os: [os],
    } as LockEntry;
    added++;
  }
}
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(
  added ? `Added ${added} platform package entries to package-lock.json.` : "package-lock.json already lists every platform package.",
);
