// The A2A page's client as a reader would use it: type-checked (tsc, strict) and run (tsx) against
// the real card and endpoint routes served over HTTP, with a rental code; it prints the echo
// agent's answer. The curl's card is the marketplace's.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as MARKETPLACE_CARD } from "@/app/.well-known/agent-card.json/route";
import { GET as CARD } from "@/app/a2a/[agentId]/.well-known/agent-card.json/route";
import { POST } from "@/app/a2a/[agentId]/route";
import { a2aClient, marketplaceCardCurl } from "@/lib/docs/a2a-examples";
import { AGENT_ID_PLACEHOLDER } from "@/lib/docs/owner-api-examples";
import { env } from "@/lib/env";
import { makeAgent, makeRental, startWebhook } from "@/test/fixtures";
import { serveRoutes } from "@/test/serve-routes";

vi.mock("next/server", async (importOriginal) => (await import("@/test/after-at-once")).withAfterAtOnce(await importOriginal()));

const run = promisify(execFile);
const root = process.cwd();
const dir = mkdtempSync(path.join(tmpdir(), "ars-a2a-client-"));
let hook: Awaited<ReturnType<typeof startWebhook>>;
let api: Awaited<ReturnType<typeof serveRoutes>>;
let agentId: string;
let code: string;

beforeAll(async () => {
  hook = await startWebhook((req, res) =>
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(`Echo: ${JSON.parse(req.body).message}`)),
  );
  const agent = await makeAgent({ webhook: { url: hook.url, token: randomBytes(24).toString("base64url") } });
  agentId = agent.id;
  code = (await makeRental(agent.id)).id.slice(0, 8);
  api = await serveRoutes([
    { method: "GET", path: /^\/\.well-known\/agent-card\.json$/, handler: MARKETPLACE_CARD as never },
    { method: "GET", path: /^\/a2a\/(?<agentId>[^/]+)\/\.well-known\/agent-card\.json$/, handler: CARD },
    { method: "POST", path: /^\/a2a\/(?<agentId>[^/]+)$/, handler: POST },
  ]);
  Object.assign(env, { APP_URL: api.origin });
  symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"));
});

afterAll(async () => {
  await api?.close();
  await hook?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the A2A page's examples", () => {
  it("the TypeScript client type-checks, is about 15 lines, and prints the agent's answer", async () => {
    const example = a2aClient(api.origin);
    const codeLines = example.code.split("\n").filter((line) => line.trim() && !line.trim().startsWith("//"));
    expect(codeLines.length).toBeLessThanOrEqual(15);
    const file = path.join(dir, "client.mts");
    writeFileSync(file, example.code.replaceAll(AGENT_ID_PLACEHOLDER, agentId));
    await run(
      path.join(root, "node_modules/.bin/tsc"),
      [
        "--noEmit",
        "--strict",
        "--module",
        "nodenext",
        "--target",
        "es2022",
        "--skipLibCheck",
        "--types",
        "node",
        "--lib",
        "es2022,dom",
        file,
      ],
      { cwd: dir },
    ).catch((error: { stdout?: string }) => {
      throw new Error(`the client does not type-check:\n${error.stdout}`);
    });
    const { stdout } = await run(path.join(root, "node_modules/.bin/tsx"), [file], {
      cwd: dir,
      env: { ...process.env, RENTAL_CODE: code },
    });
    expect(stdout.trim()).toBe("Echo: Hello! What can you do?");
  });

  it("the curl fetches the marketplace's card", async () => {
    const url = /'(.+)'/.exec(marketplaceCardCurl(api.origin).code)![1];
    const card = (await (await fetch(url)).json()) as { name: string; skills: { id: string }[] };
    expect(card).toMatchObject({ name: "Agent Rental Service", skills: [{ id: "find-agents" }] });
  });
});
