import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as connect } from "@/app/api/public/agents/[id]/connect/route";
import { PATCH as updateAgent } from "@/app/api/public/agents/[id]/route";
import { POST as createAgent, GET as listAgents } from "@/app/api/public/agents/route";
import { AGENT_ID_PLACEHOLDER, OWNER_API_KEY_PLACEHOLDER, ownerApiExamples } from "@/lib/docs/owner-api-examples";
import { WEBHOOK_TOKEN_PLACEHOLDER } from "@/lib/docs/webhook-examples";
import { makeOwnerWithKey, startWebhook } from "@/test/fixtures";
import { serveRoutes } from "@/test/serve-routes";

// The owners' page's commands, run with curl against the owner API's real handlers: create a
// listing, connect a webhook (its test passes), list it, sell its answers per message.

let api: Awaited<ReturnType<typeof serveRoutes>>;
let hook: Awaited<ReturnType<typeof startWebhook>>;
beforeAll(async () => {
  hook = await startWebhook((_req, res) => res.writeHead(200).end());
  api = await serveRoutes([
    { method: "GET", path: /^\/api\/public\/agents$/, handler: listAgents },
    { method: "POST", path: /^\/api\/public\/agents$/, handler: createAgent },
    { method: "POST", path: /^\/api\/public\/agents\/(?<id>[^/]+)\/connect$/, handler: connect },
    { method: "PATCH", path: /^\/api\/public\/agents\/(?<id>[^/]+)$/, handler: updateAgent },
  ]);
});
afterAll(async () => {
  await api.close();
  await hook.close();
});

const curl = async (command: string) => JSON.parse((await promisify(execFile)("bash", ["-c", command])).stdout);

describe("the owner API examples", () => {
  it("create, connect and list a listing as written, with the placeholders filled in", async () => {
    const { apiKey } = await makeOwnerWithKey();
    const token = randomBytes(32).toString("base64url");
    const examples = ownerApiExamples(api.origin);
    const fill = (code: string, agentId = "") =>
      code
        .replaceAll(OWNER_API_KEY_PLACEHOLDER, apiKey)
        .replaceAll(AGENT_ID_PLACEHOLDER, agentId)
        .replaceAll(WEBHOOK_TOKEN_PLACEHOLDER, token)
        .replace("https://agent.example.com/hooks/agent", hook.url);

    const { agent } = await curl(fill(examples.create.code));
    expect(agent).toMatchObject({ name: "DocsBot", status: "available", webhookConnected: false });
    const connected = await curl(fill(examples.connect.code, agent.id));
    expect(connected).toMatchObject({ agent: { webhookConnected: true, status: "available" }, test: { ok: true } });
    expect(hook.received[0].headers.authorization).toBe(`Bearer ${token}`);
    const { agents } = await curl(fill(examples.list.code));
    expect(agents.map((a: { id: string }) => a.id)).toEqual([agent.id]);
    const sold = await curl(fill(examples.sellPerMessage.code, agent.id));
    expect(sold.agent).toMatchObject({ id: agent.id, pricePerMessage: 0.01, pricePerHour: 2 });
  });

  it("use the site's own origin", () => {
    const { create, connect, list, sellPerMessage } = ownerApiExamples("https://rent.example/");
    for (const example of [create, connect, list, sellPerMessage])
      expect(example.code).toContain("'https://rent.example/api/public/agents");
  });
});
