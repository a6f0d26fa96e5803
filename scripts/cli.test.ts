import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { makeAgent } from "@/test/fixtures";
import { parseFlags } from "./cli-commands";
import { tsNodeArgs } from "./node-args";

const run = promisify(execFile);

// `env` is added to this process's (NODE_ENV=test under vitest); undefined removes a variable.
async function cli(args: string[], env: Record<string, string | undefined> = {}) {
  const merged = Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, value]) => value !== undefined));
  try {
    const { stdout, stderr } = await run(process.execPath, tsNodeArgs("scripts/cli.ts", args, { reactServer: true }), {
      env: merged as NodeJS.ProcessEnv,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

// Each command is a process of its own (tsx, Prisma): seconds each on a busy machine.
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
      "agent:create",
      "--owner",
      accountId,
      "--name",
      "CLI Agent",
      "--category",
      "coding",
      "--price-hour",
      "1.5",
      "--price-month",
      "40",
      "--channels",
      "API,Slack",
      "--webhook-url",
      "https://agent.example.com/hooks/agent",
      "--webhook-token",
      "t".repeat(40),
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

  it("makes unpaid rentals only when NODE_ENV is development or test, said explicitly", async () => {
    const agent = await makeAgent();
    const args = ["rental:create", "--agent", agent.id, "--duration", "day"];
    const refused = (value: string) =>
      `error: rental:create makes unpaid rentals, for development and tests only: run it with NODE_ENV=development (or test); NODE_ENV is ${value}.\n`;

    const unset = await cli(args, { NODE_ENV: undefined });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toBe(refused("not set"));
    const production = await cli(args, { NODE_ENV: "production" });
    expect(production.code).toBe(2);
    expect(production.stderr).toBe(refused('"production"'));
    expect(production.stdout).toBe("");
    expect(await db.rental.count({ where: { agentId: agent.id } })).toBe(0);

    for (const mode of ["development", "test"]) {
      const made = await cli(args, { NODE_ENV: mode });
      expect(made.code, made.stderr).toBe(0);
    }
    expect(await db.rental.count({ where: { agentId: agent.id } })).toBe(2);
  });

  it("takes --name=value as well as --name value, negative numbers included", async () => {
    const agent = await makeAgent();
    const result = await cli(["rental:create", `--agent=${agent.id}`, "--duration=hour", "--starts-in=-120", "--ends-in=-60"]);
    expect(result.code, result.stderr).toBe(0);
    const rental = JSON.parse(result.stdout);
    expect(Date.parse(rental.ends_at) - Date.parse(rental.starts_at)).toBe(60_000); // started 120 s ago, ended 60 s ago
    const spaced = await cli(["rental:create", "--agent", agent.id, "--duration", "hour", "--starts-in", "-120", "--ends-in", "-60"]);
    expect(spaced.code, spaced.stderr).toBe(0);
  });
});

describe("parseFlags", () => {
  it("reads --name value and --name=value alike", () => {
    expect(parseFlags(["--agent", "a1", "--ends-in=-60", "--starts-in", "-120", "--label=x=y", "--channel="])).toEqual({
      agent: "a1",
      "ends-in": "-60",
      "starts-in": "-120",
      label: "x=y",
      channel: "",
    });
  });

  it("refuses a flag without a value, and anything that is not a flag", () => {
    expect(() => parseFlags(["--email"])).toThrow("Flag --email needs a value.");
    expect(() => parseFlags(["--email", "--wallet", "0x1"])).toThrow("Flag --email needs a value.");
    expect(() => parseFlags(["email=x"])).toThrow('Unexpected argument "email=x"; flags look like --name value or --name=value.');
    expect(() => parseFlags(["--=x"])).toThrow(/Unexpected argument "--=x"/);
  });

  it("takes a switch (--fix) alone, and with a flag after it", () => {
    expect(parseFlags(["--fix"])).toEqual({ fix: "true" });
    expect(parseFlags(["--fix", "--since", "7"])).toEqual({ fix: "true", since: "7" });
  });
});
