// The developer surfaces against the running server, with the clients developers use: the official
// `openai` package (plain and streaming, through /api/v1 and the root /v1), the MCP SDK's client,
// and a webhook that verifies every call with `standardwebhooks` using the signing secret the
// listing was given. The 401, 403, 502 and 503 paths too.
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test } from "@playwright/test";
import OpenAI from "openai";
import { Webhook } from "standardwebhooks";
import { baseUrl, operatorCli } from "./stack";

const verified: boolean[] = [];
let hook: http.Server;
let code: string;
let agentId: string;
let endedCode: string;
let unconnectedCode: string;

test.beforeAll(async () => {
  const token = randomBytes(32).toString("base64url");
  let verifier: Webhook | undefined;
  hook = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c));
    req.on("end", () => {
      try {
        const event = verifier!.verify(raw, req.headers as Record<string, string>) as { type: string; message?: string };
        verified.push(true);
        if (event.message === "fail") return res.writeHead(500).end("down");
        const reply = event.type === "health_check" ? { ok: true } : `You said: ${event.message}`;
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply));
      } catch {
        verified.push(false);
        res.writeHead(401).end();
      }
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hooks/agent`;
  const owner = await operatorCli(["owner:create", "--email", `dev-${randomBytes(4).toString("hex")}@example.com`]);
  const agent = await operatorCli([
    "agent:create",
    "--owner",
    String(owner.accountId),
    "--name",
    "Docs Helper",
    "--price-day",
    "5",
    "--webhook-url",
    url,
    "--webhook-token",
    token,
  ]);
  verifier = new Webhook(String(agent.signingSecret));
  agentId = String(agent.id);
  const rental = (args: string[] = []) =>
    operatorCli(["rental:create", "--agent", agentId, "--duration", "day", ...args], { NODE_ENV: "test" });
  code = String((await rental()).code);
  endedCode = String((await rental(["--starts-in=-7200", "--ends-in=-60"])).code);
  const bare = await operatorCli(["agent:create", "--owner", String(owner.accountId), "--name", "Not Connected", "--price-day", "5"]);
  unconnectedCode = String(
    (await operatorCli(["rental:create", "--agent", String(bare.id), "--duration", "day"], { NODE_ENV: "test" })).code,
  );
});

test.afterAll(() => {
  hook?.closeAllConnections();
  hook?.close();
});

test("the openai package talks to the rented agent, plain and streaming, and gets OpenAI's errors", async () => {
  const client = (key: string, base = `${baseUrl()}/api/v1`) => new OpenAI({ apiKey: key, baseURL: base, maxRetries: 0 });
  const ask = (key: string, content: string) =>
    client(key).chat.completions.create({ model: "any", messages: [{ role: "user", content }] });

  const before = verified.length;
  const completion = await ask(code, "hello");
  expect(completion.choices[0]).toMatchObject({ message: { role: "assistant", content: "You said: hello" }, finish_reason: "stop" });
  expect(completion.model).toBe("any");

  // The root /v1 answers the same (the API host rewrite).
  const stream = await client(code, `${baseUrl()}/v1`).chat.completions.create({
    model: "any",
    stream: true,
    messages: [{ role: "user", content: "streamed" }],
  });
  let text = "";
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
  expect(text).toBe("You said: streamed");

  expect((await client(code).models.list()).data.map((m) => m.id)).toEqual([agentId]);

  await expect(ask("not-a-code", "hi")).rejects.toMatchObject({ status: 401, type: "authentication_error" });
  await expect(ask(endedCode, "hi")).rejects.toMatchObject({ status: 403, type: "permission_error" });
  await expect(ask(code, "fail")).rejects.toMatchObject({ status: 502, code: "agent_error" });
  await expect(ask(unconnectedCode, "hi")).rejects.toMatchObject({ status: 503, code: "agent_unavailable" });
  // The three calls that reached the webhook ("hello", "streamed", "fail") verified with the secret.
  expect(verified.slice(before)).toEqual([true, true, true]);
});

test("an MCP client lists the rental's tools and calls both", async () => {
  const before = verified.length;
  const mcp = new Client({ name: "e2e-assistant", version: "1.0.0" });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl()}/v1/mcp`), { requestInit: { headers: { Authorization: `Bearer ${code}` } } }),
  );
  expect(mcp.getInstructions()).toContain('"Docs Helper"');
  expect((await mcp.listTools()).tools.map((t) => t.name).sort()).toEqual(["chat", "status"]);
  expect(await mcp.callTool({ name: "chat", arguments: { message: "from an assistant" } })).toMatchObject({
    content: [{ type: "text", text: "You said: from an assistant" }],
  });
  expect((await mcp.callTool({ name: "status", arguments: {} })).structuredContent).toMatchObject({
    rental: { status: "active" },
    agent: { id: agentId, name: "Docs Helper" },
  });
  await mcp.close();
  expect(verified.slice(before)).toEqual([true]);
});
