// `npm start` (scripts/server.ts with NODE_ENV=production) refuses to boot without APP_URL,
// SECRET_BOX_KEYS or CRON_SECRET: it exits non-zero and names the missing setting, before it
// loads Next.js or opens a port.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { freePort } from "./free-port";
import { tsNodeArgs } from "./node-args";

const SETTINGS = {
  APP_URL: "https://rent.example.com",
  SECRET_BOX_KEYS: "t1:3q2+7wABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhs=",
  CRON_SECRET: "c".repeat(32),
};

async function startServer(env: Record<string, string>) {
  try {
    await promisify(execFile)(process.execPath, tsNodeArgs("scripts/server.ts"), {
      // Were the check missing, the server would start (after a build) and be stopped by the timeout.
      env: { ...process.env, NODE_ENV: "production", PORT: String(await freePort()), ...env },
      timeout: 60_000,
    });
    return { code: 0, stderr: "" };
  } catch (error) {
    const e = error as { code: number; stderr: string };
    return { code: e.code, stderr: e.stderr };
  }
}

describe("npm start in production", () => {
  it.each(["APP_URL", "SECRET_BOX_KEYS", "CRON_SECRET"])(
    "refuses to boot without %s, naming it",
    async (name) => {
      // An empty value is "not set" (lib/env.ts), and it keeps a value from a developer's .env out.
      const { code, stderr } = await startServer({ ...SETTINGS, [name]: "" });
      expect(code).toBe(1);
      expect(stderr).toContain(`npm start refuses to start in production: ${name} is not set.`);
    },
    60_000,
  );
});
