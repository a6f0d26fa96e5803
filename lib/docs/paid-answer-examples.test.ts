// The renters' page's examples of answers sold per message, as a reader would use them, against
// the real route served over HTTP on a private anvil chain: the TypeScript client is type-checked
// (tsc, strict) and run (tsx) with a funded wallet, and gets the agent's answer and a settled
// payment; the curl gets the 402 the page shows, field for field.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/v1/agents/[agentId]/chat/route";
import { db } from "@/lib/db";
import { AGENT_ID_PLACEHOLDER } from "@/lib/docs/owner-api-examples";
import { BASE_CHAIN, paidAnswerClient, paidAnswerCurl, paidAnswerPaymentRequired } from "@/lib/docs/paid-answer-examples";
import { messageFeeMicro } from "@/lib/money/message-fee";
import { makePayableAgent, newRenter, type Payments, startPayments } from "@/test/chain/payments-harness";
import { startWebhook } from "@/test/fixtures";
import { isolateDatabase } from "@/test/private-database";
import { serveRoutes } from "@/test/serve-routes";

const run = promisify(execFile);
const root = process.cwd();
const PRICE = 20_000n; // 0.02 USDC, the price the page's 402 shows

let p: Payments;
let hook: Awaited<ReturnType<typeof startWebhook>>;
let api: Awaited<ReturnType<typeof serveRoutes>>;
let agent: { id: string; name: string };
let payout: string;
// A folder of its own for the client, whose imports resolve to this repository's packages.
const dir = mkdtempSync(path.join(tmpdir(), "ars-x402-client-"));

// Settling sends operator transactions, whose nonces are read from chain_transactions: other files
// settling on their own anvil with the same operator key must not share them.
isolateDatabase("paid_answer_examples");

beforeAll(async () => {
  p = await startPayments();
  hook = await startWebhook((req, res) =>
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(`Echo: ${JSON.parse(req.body).message}`)),
  );
  const made = await makePayableAgent({ webhook: hook.url });
  agent = made.agent;
  payout = made.payout;
  await db.agent.update({ where: { id: agent.id }, data: { pricePerMessage: PRICE } });
  api = await serveRoutes([{ method: "POST", path: /^\/api\/v1\/agents\/(?<agentId>[^/]+)\/chat$/, handler: POST }]);
  symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"));
});

afterAll(async () => {
  await api?.close();
  await hook?.close();
  await p?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const withAgent = (code: string) => code.replaceAll(AGENT_ID_PLACEHOLDER, agent.id);

describe("the TypeScript client that pays for an answer", () => {
  it("type-checks, and run with a funded wallet prints the agent's answer; the owner is credited the price", async () => {
    const chain = { chainId: p.publicClient.chain.id, usdc: p.e.token };
    const example = paidAnswerClient(api.origin, chain);
    expect(example.code).toContain(`${api.origin}/api/v1/agents/${AGENT_ID_PLACEHOLDER}/chat`);
    expect(example.code).toContain(`"eip155:${chain.chainId}"`);
    // Fifteen lines of code, give or take the comments and blank lines.
    const codeLines = example.code.split("\n").filter((line) => line.trim() && !line.startsWith("//"));
    expect(codeLines.length).toBeLessThanOrEqual(20);

    const file = path.join(dir, "client.mts");
    writeFileSync(file, withAgent(example.code));
    const tsc = path.join(root, "node_modules/.bin/tsc");
    await run(tsc, ["--noEmit", "--strict", "--module", "nodenext", "--target", "es2022", "--skipLibCheck", "--types", "node", file], {
      cwd: dir,
    }).catch((error: { stdout?: string }) => {
      throw new Error(`the client does not type-check:\n${error.stdout}`);
    });

    const renter = await newRenter(p);
    const { stdout } = await run(path.join(root, "node_modules/.bin/tsx"), [file], {
      cwd: dir,
      env: { ...process.env, PRIVATE_KEY: renter.key },
    });
    expect(stdout).toMatch(/^Echo: Hello! What can you do\? - paid in transaction 0x[0-9a-f]{64}\n$/);
    expect(await p.e.credits(payout as `0x${string}`)).toBe(PRICE);
    expect(await db.messagePayment.count({ where: { agentId: agent.id, status: "settled" } })).toBe(1);
  });
});

describe("the 402 without a payment", () => {
  it("curl -i gets the 402 the page shows: the header's requirements, the same in the body", async () => {
    const { stdout } = await run("curl", ["-sS", ...curlArgs(withAgent(paidAnswerCurl(api.origin).code))]);
    const [head, body] = stdout.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 402 Payment Required/);
    const headers = Object.fromEntries(
      head
        .split("\r\n")
        .slice(1)
        .map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
    );
    const real = decodePaymentRequiredHeader(headers["payment-required"]);
    expect(JSON.parse(body)).toEqual(real);

    const shownExample = paidAnswerPaymentRequired(api.origin).code;
    const shownHead = shownExample.slice(0, shownExample.indexOf("\n\n")).split("\n");
    for (const line of shownHead.slice(1)) {
      const [name, value] = [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)];
      if (name === "payment-required") expect(headers[name].startsWith(value.replace("…", ""))).toBe(true);
      else expect(headers[name], name).toBe(value);
    }
    const shown = JSON.parse(shownExample.slice(shownExample.indexOf("\n\n") + 2));
    // The page's agent costs what this one does, on Base: every field there, and the same values
    // but those of the chain, the escrow and the agent.
    expect(messageFeeMicro(PRICE, 500)).toBe(1_000n);
    expect(real.accepts).toHaveLength(1);
    expect(Object.keys(shown).sort()).toEqual(Object.keys(real).sort());
    expect(Object.keys(shown.accepts[0]).sort()).toEqual(Object.keys(real.accepts[0]).sort());
    expect({ ...shown.accepts[0], network: "", asset: "", payTo: "", extra: {} }).toEqual({
      ...real.accepts[0],
      network: "",
      asset: "",
      payTo: "",
      extra: {},
    });
    expect(shown.accepts[0]).toMatchObject({ network: `eip155:${BASE_CHAIN.chainId}`, asset: BASE_CHAIN.usdc });
    expect(Object.keys(shown.accepts[0].extra)).toEqual(Object.keys(real.accepts[0].extra ?? {}));
    expect(shown.error).toBe(real.error);
    expect(shown.resource.mimeType).toBe(real.resource.mimeType);
    expect(shown.resource.description.replace('"DocsBot"', JSON.stringify(agent.name)).replace(AGENT_ID_PLACEHOLDER, agent.id)).toBe(
      real.resource.description,
    );
    expect(real.resource.url.endsWith(`/api/v1/agents/${agent.id}/chat`)).toBe(true);
  });
});

// The example's command line as arguments (each argument on a line of its own, single-quoted).
function curlArgs(command: string): string[] {
  const args: string[] = [];
  for (const match of command.replace(/ \\\n\s*/g, " ").matchAll(/'([^']*)'|(\S+)/g)) args.push(match[1] ?? match[2]);
  return args.slice(1);
}
