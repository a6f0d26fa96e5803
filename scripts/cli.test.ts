import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";

const run = promisify(execFile);
const tsx = path.resolve("node_modules/tsx/dist/cli.mjs");

async function cli(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [tsx, "--conditions=react-server", "scripts/cli.ts", ...args], {
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("operator CLI", () => {
  it("creates an owner, an agent with an encrypted webhook, and a development rental", async () => {
    const email = `cli-${Date.now()}@example.com`;
    const owner = await cli(["owner:create", "--email", email]);
    expect(owner.code, owner.stderr).toBe(0);
    const { accountId, apiKey } = JSON.parse(owner.stdout);
    expect(apiKey).toMatch(/^rck_[0-9A-Za-z]+$/);
    const stored = await db.apiKey.findFirstOrThrow({ where: { accountId } });
    expect(stored.keyHash).not.toContain(apiKey.slice(4));

    const agentRun = await cli([
      "agent:create", "--owner", accountId, "--name", "CLI Agent", "--category", "coding",
      "--price-hour", "1.5", "--price-month", "40", "--channels", "API,Slack",
      "--webhook-url", "https://agent.example.com/hooks/agent", "--webhook-token", "t".repeat(40),
    ]);
    expect(agentRun.code, agentRun.stderr).toBe(0);
    const agent = JSON.parse(agentRun.stdout);
    expect(agent).toMatchObject({
      name: "CLI Agent",
      category: "coding",
      skills: ["code-review", "debugging", "refactoring"],
      channels: ["API", "Slack"],
      pricePerHour: 1.5,
      pricePerDay: null,
      pricePerMonth: 40,
      status: "available",
      webhookConnected: true,
    });
    const row = await db.agent.findUniqueOrThrow({ where: { id: agent.id } });
    expect(row.webhookUrlCipher).not.toContain("agent.example.com");
    expect(row.webhookTokenCipher).not.toContain("tttt");

    const rentalRun = await cli(["rental:create", "--agent", agent.id, "--duration", "hour", "--starts-in", "-60"]);
    expect(rentalRun.code, rentalRun.stderr).toBe(0);
    const rental = JSON.parse(rentalRun.stdout);
    expect(rental.code).toBe(rental.id.slice(0, 8));
    expect(Date.parse(rental.ends_at) - Date.parse(rental.starts_at)).toBe(3_600_000);
    const saved = await db.rental.findUniqueOrThrow({ where: { id: rental.id } });
    expect([saved.status, saved.priceMicro, saved.feeMicro]).toEqual(["active", 1_500_000n, 1_000_000n]);
  });

  it("explains bad input on stderr and exits non-zero", async () => {
    const cases: [string[], RegExp][] = [
      [[], /No command given/],
      [["owner:fly"], /Unknown command "owner:fly"/],
      [["owner:create", "--email", "not-an-email"], /--email: must be an e-mail address/],
      [["owner:create", "--email"], /--email needs a value/],
      [["agent:create", "--owner", "00000000-0000-4000-8000-000000000000", "--name", "X Agent", "--price-hour", "1"], /No account/],
      [["rental:create", "--agent", "00000000-0000-4000-8000-000000000000", "--duration", "week"], /--duration/],
    ];
    for (const [args, message] of cases) {
      const result = await cli(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe("");
    }
  });

  it("refuses unpaid rentals in production", async () => {
    const result = await cli(["rental:create", "--agent", "00000000-0000-4000-8000-000000000000", "--duration", "day"], {
      NODE_ENV: "production",
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/refused when NODE_ENV=production/);
  });
});
