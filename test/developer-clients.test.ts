// The developer surfaces with the clients developers already use, against the routes served over
// real HTTP: the official `openai` package (plain and streaming) on /v1/chat/completions and
// /v1/models, the MCP TypeScript SDK's client on /v1/mcp, and a webhook that verifies every call
// with the `standardwebhooks` package. Their 401/403/502/503 paths too.
import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import OpenAI from "openai";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as completions from "@/app/api/v1/chat/completions/route";
import * as mcp from "@/app/api/v1/mcp/route";
import * as models from "@/app/api/v1/models/route";
import { newSigningSecret } from "@/lib/agents/webhook-credentials";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { makeAgent, makeRental, type ReceivedRequest, startWebhook } from "@/test/fixtures";
import { serveRoutes } from "@/test/serve-routes";

const token = randomBytes(24).toString("base64url");
const secret = newSigningSecret();
const verifier = new Webhook(secret);
// Replies the webhook holds until the test lets them go (no timing in the test).
const held: (() => void)[] = [];
const verified: boolean[] = [];

function answer(req: ReceivedRequest, res: ServerResponse) {
  try {
    verifier.verify(req.body, req.headers as Record<string, string>);
    verified.push(true);
  } catch {
    verified.push(false);
    return res.writeHead(401).end();
  }
  const event = JSON.parse(req.body);
  const json = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  if (event.type === "health_check") return json(200, { ok: true });
  if (event.message === "object please") return json(200, { text: "Here you are.", items: [1, 2] });
  if (event.message === "fail") return json(500, { error: "boom" });
  if (event.message === "slow") return held.push(() => json(200, "Sorry for the wait."));
  if (event.message === "slow fail") return held.push(() => json(500, { error: "boom" }));
  return json(200, `You said: ${event.message}`);
}

let hook: Awaited<ReturnType<typeof startWebhook>>;
let server: Awaited<ReturnType<typeof serveRoutes>>;
let code: string;
let agentId: string;
let endedCode: string;
let unconnectedCode: string;

const openai = (key: string) => new OpenAI({ apiKey: key, baseURL: `${server.origin}/api/v1`, maxRetries: 0 });

async function until<T>(read: () => T | undefined): Promise<T> {
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

beforeAll(async () => {
  Object.assign(env, { CHAT_STREAM_KEEPALIVE_MS: 50 });
  hook = await startWebhook(answer);
  const agent = await makeAgent({
    webhook: { url: hook.url, token, signingSecret: secret },
    listing: { name: "Docs Helper", description: "Answers questions about the docs." },
  });
  agentId = agent.id;
  code = (await makeRental(agent.id)).id.slice(0, 8);
  endedCode = (await makeRental(agent.id, { startsInSeconds: -7200, endsInSeconds: -60 })).id.slice(0, 8);
  unconnectedCode = (await makeRental((await makeAgent()).id)).id.slice(0, 8);
  server = await serveRoutes([
    { method: "POST", path: /^\/api\/v1\/chat\/completions$/, handler: completions.POST },
    { method: "GET", path: /^\/api\/v1\/models$/, handler: models.GET },
    { method: "POST", path: /^\/api\/v1\/mcp$/, handler: mcp.POST },
    { method: "GET", path: /^\/api\/v1\/mcp$/, handler: async () => mcp.GET() },
  ]);
});

afterAll(async () => {
  await server?.close();
  await hook?.close();
});

describe("the openai package", () => {
  it("gets the agent's reply as the assistant's message, the model echoed, and lists the agent as the one model", async () => {
    const completion = await openai(code).chat.completions.create({
      model: "anything-you-like",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "an earlier question" },
        { role: "assistant", content: "an earlier answer" },
        { role: "user", content: [{ type: "text", text: "hello" }] },
      ],
    });
    expect(completion).toMatchObject({
      object: "chat.completion",
      model: "anything-you-like",
      choices: [{ index: 0, message: { role: "assistant", content: "You said: hello" }, finish_reason: "stop" }],
      usage: { prompt_tokens: 2, completion_tokens: 4, total_tokens: 6 },
    });
    expect(completion.id).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
    const object = await openai(code).chat.completions.create({ model: "m", messages: [{ role: "user", content: "object please" }] });
    expect(JSON.parse(object.choices[0].message.content!)).toEqual({ text: "Here you are.", items: [1, 2] });

    const list = await openai(code).models.list();
    expect(list.data).toEqual([{ id: agentId, object: "model", created: expect.any(Number), owned_by: "agent-rental-service" }]);
    // Recorded like any /v1/chat call, on the API channel.
    expect(await db.chatCall.count({ where: { agentId, channel: "API", statusCode: 200 } })).toBeGreaterThanOrEqual(2);
  });

  it("streams: the content in chunks, then the end; keep-alive comments while the webhook thinks", async () => {
    const stream = await openai(code).chat.completions.create({
      model: "m",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "hello again" }],
    });
    let text = "";
    let finish: string | null = null;
    let usage: unknown = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? "";
      finish ??= chunk.choices[0]?.finish_reason ?? null;
      usage ??= chunk.usage ?? null;
    }
    expect(text).toBe("You said: hello again");
    expect(finish).toBe("stop");
    expect(usage).toMatchObject({ total_tokens: expect.any(Number) });

    // Raw, to see the comments: the webhook answers only once one has arrived.
    const res = await fetch(`${server.origin}/api/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${code}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content: "slow" }] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let raw = "";
    while (!raw.includes(": keep-alive")) raw += decoder.decode((await reader.read()).value);
    (await until(() => held.shift()))();
    for (let part = await reader.read(); !part.done; part = await reader.read()) raw += decoder.decode(part.value);
    expect(raw.startsWith(": keep-alive\n\n")).toBe(true);
    const events = raw.split("\n\n").filter((e) => e.startsWith("data: "));
    expect(events.at(-1)).toBe("data: [DONE]");
    expect(events.map((e) => (e === "data: [DONE]" ? null : (JSON.parse(e.slice(6)).choices[0].delta.content ?? null))).join("")).toBe(
      "Sorry for the wait.",
    );
  });

  it("raises OpenAI's errors with the renter API's statuses: 401, 403, 502, 503, and a failure after the stream began", async () => {
    const ask = (key: string, content: string) =>
      openai(key).chat.completions.create({ model: "m", messages: [{ role: "user", content }] });
    await expect(ask("not-a-code", "hi")).rejects.toMatchObject({ status: 401, type: "authentication_error", code: "invalid_api_key" });
    await expect(ask(endedCode, "hi")).rejects.toBeInstanceOf(OpenAI.PermissionDeniedError);
    await expect(ask(code, "fail")).rejects.toMatchObject({
      status: 502,
      type: "api_error",
      code: "agent_error",
      error: { message: "The agent's webhook returned HTTP 500." },
    });
    await expect(ask(unconnectedCode, "hi")).rejects.toMatchObject({ status: 503, code: "agent_unavailable" });
    await expect(openai("not-a-code").models.list()).rejects.toMatchObject({ status: 401 });

    const stream = await openai(code).chat.completions.create({
      model: "m",
      stream: true,
      messages: [{ role: "user", content: "slow fail" }],
    });
    const release = until(() => held.shift()).then((go) => go());
    await expect(
      (async () => {
        for await (const _ of stream) {
          // drained until the error event
        }
      })(),
    ).rejects.toMatchObject({ message: expect.stringContaining("The agent's webhook returned HTTP 500.") });
    await release;
  });
});

describe("the MCP SDK's client", () => {
  const connect = async (key: string) => {
    const client = new Client({ name: "test-assistant", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${server.origin}/api/v1/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    });
    await client.connect(transport);
    return client;
  };

  it("lists chat and status, calls both; the instructions name the agent, the status gives the owner's description as theirs", async () => {
    const client = await connect(code);
    expect(client.getInstructions()).toContain('"Docs Helper"');
    expect(client.getInstructions()).not.toContain("Answers questions about the docs.");
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(["chat", "status"]);

    expect(await client.callTool({ name: "chat", arguments: { message: "hi there" } })).toMatchObject({
      content: [{ type: "text", text: "You said: hi there" }],
    });
    const rich = await client.callTool({ name: "chat", arguments: { message: "object please" } });
    expect(rich.structuredContent).toEqual({ text: "Here you are.", items: [1, 2] });
    const status = await client.callTool({ name: "status", arguments: {} });
    expect(status.structuredContent).toMatchObject({
      rental: { status: "active", channel: "API" },
      agent: { id: agentId, description_written_by_owner: "Answers questions about the docs." },
    });

    // The webhook's failure is the tool's error, in words.
    const failed = await client.callTool({ name: "chat", arguments: { message: "fail" } });
    expect(failed).toMatchObject({ isError: true, content: [{ type: "text", text: expect.stringContaining("HTTP 502") }] });
    await client.close();

    const ended = await connect(endedCode);
    expect(await ended.callTool({ name: "chat", arguments: { message: "hi" } })).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining("HTTP 403") }],
    });
    await ended.close();
    await expect(connect("not-a-code")).rejects.toThrow();
  });
});

describe("Standard Webhooks signatures", () => {
  it("every call the webhook received verified with the standardwebhooks package; another secret does not", () => {
    expect(verified.length).toBeGreaterThan(5);
    expect(verified.every(Boolean)).toBe(true);
    const last = hook.received.at(-1)!;
    expect(last.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(() => new Webhook(newSigningSecret()).verify(last.body, last.headers as Record<string, string>)).toThrow();
    expect(() => verifier.verify(`${last.body} `, last.headers as Record<string, string>)).toThrow();
  });
});
