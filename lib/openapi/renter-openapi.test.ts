import { randomBytes } from "node:crypto";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as paidAnswer } from "@/app/api/v1/agents/[agentId]/chat/route";
import { GET as availability } from "@/app/api/v1/availability/route";
import { POST as completions } from "@/app/api/v1/chat/completions/route";
import { POST as chat } from "@/app/api/v1/chat/route";
import { GET as models } from "@/app/api/v1/models/route";
import { GET as openapi } from "@/app/api/v1/openapi.json/route";
import { GET as status } from "@/app/api/v1/status/route";
import { db } from "@/lib/db";
import { renterRequest } from "@/test/api-requests";
import { makeAgent, makeRental, startWebhook } from "@/test/fixtures";

type Doc = {
  openapi: string;
  info: { version: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: { $ref: string } }> }> }>>;
  components: { schemas: Record<string, object> };
};

let doc: Doc;
let hook: Awaited<ReturnType<typeof startWebhook>>;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

// The document's components under one id, so that references between them resolve as they do in
// the document (`#/components/schemas/…`).
const DOC_ID = "https://openapi.test/renter";
const componentValidator = (name: string) => ajv.getSchema(`${DOC_ID}#/components/schemas/${name}`)!;

beforeAll(async () => {
  doc = await (await openapi(new Request("http://localhost:3000/api/v1/openapi.json"))).json();
  ajv.addSchema({ $id: DOC_ID, components: doc.components });
  hook = await startWebhook((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"rich":true}'));
});
afterAll(() => hook.close());

// Validates a real response against the schema the document declares for that path and status.
async function expectConforms(res: Response, path: string, method: string) {
  const declared = doc.paths[path][method].responses[String(res.status)];
  expect(declared, `${method.toUpperCase()} ${path} documents ${res.status}`).toBeDefined();
  const ref = declared.content!["application/json"].schema.$ref.split("/").at(-1)!;
  const validate = componentValidator(ref);
  const body = await res.json();
  expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
}

// Every "$ref" in the document, as JSON pointers into it.
function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (!value || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, v]) => (key === "$ref" && typeof v === "string" ? [v] : refsIn(v)));
}

describe("GET /api/v1/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document whose every reference resolves", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(5);
    for (const ref of refs) {
      expect(ref.startsWith("#/"), ref).toBe(true);
      const target = ref
        .slice(2)
        .split("/")
        .reduce<unknown>(
          (node, part) => (node as Record<string, unknown> | undefined)?.[part.replaceAll("~1", "/").replaceAll("~0", "~")],
          doc,
        );
      expect(target, `${ref} resolves`).toBeTypeOf("object");
    }
  });

  it("is OpenAPI 3.1, version 1.0.0, and names every endpoint", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
    expect(Object.keys(doc.paths).sort()).toEqual([
      "/.well-known/agent-card.json",
      "/a2a",
      "/a2a/{agentId}",
      "/a2a/{agentId}/.well-known/agent-card.json",
      "/v1/agents/{agentId}/chat",
      "/v1/agents/{agentId}/mcp",
      "/v1/availability",
      "/v1/chat",
      "/v1/chat/completions",
      "/v1/mcp",
      "/v1/models",
      "/v1/status",
    ]);
  });

  it("puts the A2A routes at the site's root, not under /api", () => {
    const paths = doc.paths as unknown as Record<string, { servers?: { url: string }[] }>;
    for (const path of ["/.well-known/agent-card.json", "/a2a", "/a2a/{agentId}", "/a2a/{agentId}/.well-known/agent-card.json"]) {
      expect(paths[path].servers, path).toEqual([{ url: new URL(doc.servers[0].url).origin }]);
    }
  });

  it("describes the real responses of both endpoints", async () => {
    const agent = await makeAgent({ webhook: { url: hook.url, token: randomBytes(24).toString("hex") } });
    const rental = await makeRental(agent.id);
    const code = rental.id.slice(0, 8);
    const ended = await makeRental(agent.id, { status: "cancelled" });

    await expectConforms(await status(renterRequest("status", { code })), "/v1/status", "get");
    await expectConforms(await status(renterRequest("status", {})), "/v1/status", "get");
    await expectConforms(await status(renterRequest("status", { code: "00000000" })), "/v1/status", "get");
    await expectConforms(await availability(renterRequest("availability", { code })), "/v1/availability", "get");
    await expectConforms(await availability(renterRequest("availability", { code: "00000000" })), "/v1/availability", "get");
    await expectConforms(await chat(renterRequest("chat", { code, body: { message: "hi" } })), "/v1/chat", "post");
    await expectConforms(await chat(renterRequest("chat", { code, body: { nope: 1 } })), "/v1/chat", "post");
    await expectConforms(await chat(renterRequest("chat", { code: ended.id, body: { message: "hi" } })), "/v1/chat", "post");
    const ask = (key: string, body: unknown) => completions(renterRequest("chat/completions", { code: key, body }));
    const messages = [{ role: "user", content: "hi" }];
    await expectConforms(await ask(code, { model: "m", messages }), "/v1/chat/completions", "post");
    await expectConforms(await ask(code, { model: "m", messages: [] }), "/v1/chat/completions", "post");
    await expectConforms(await ask(ended.id, { model: "m", messages }), "/v1/chat/completions", "post");
    await expectConforms(await models(renterRequest("models", { code })), "/v1/models", "get");
    await expectConforms(await models(renterRequest("models", {})), "/v1/models", "get");

    // Answers sold per message: what is refused before any payment is looked at (no chain needed;
    // the 402 and the 200 are checked on a chain in renter-openapi.paid-answers.test.ts).
    const ask402 = (agentId: string, body: unknown) =>
      paidAnswer(
        new Request(`http://localhost/api/v1/agents/${agentId}/chat`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.7" },
          body: JSON.stringify(body),
        }),
        { params: Promise.resolve({ agentId }) },
      );
    await expectConforms(await ask402(agent.id, { message: "hi" }), "/v1/agents/{agentId}/chat", "post");
    const offline = await makeAgent({ webhook: { url: hook.url, token: randomBytes(24).toString("hex") } });
    await db.agent.update({ where: { id: offline.id }, data: { pricePerMessage: 20_000n, status: "offline" } });
    await db.account.update({ where: { id: offline.ownerId }, data: { walletAddress: `0x${"ab".repeat(20)}` } });
    const off = await ask402(offline.id, { message: "hi" });
    expect(off.status).toBe(503);
    await expectConforms(off, "/v1/agents/{agentId}/chat", "post");
    await expectConforms(await ask402("00000000-0000-4000-8000-000000000000", { message: "hi" }), "/v1/agents/{agentId}/chat", "post");
  });

  it("answers sold per message: no rental code, the x402 headers described as base64 of their components", () => {
    const op = doc.paths["/v1/agents/{agentId}/chat"].post as unknown as {
      security: unknown[];
      parameters: { name: string; in: string; schema: { contentSchema?: { $ref: string } } }[];
      responses: Record<string, { headers?: Record<string, { schema: { contentEncoding: string; contentSchema: { $ref: string } } }> }>;
    };
    expect(op.security).toEqual([]);
    expect(op.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(["path:agentId", "header:PAYMENT-SIGNATURE"]);
    expect(op.parameters[1].schema.contentSchema?.$ref).toBe("#/components/schemas/PaymentPayload");
    expect(Object.keys(op.responses).sort()).toEqual(["200", "400", "402", "404", "429", "502", "503"]);
    expect(op.responses["402"].headers?.["PAYMENT-REQUIRED"].schema).toMatchObject({
      contentEncoding: "base64",
      contentSchema: { $ref: "#/components/schemas/PaymentRequired" },
    });
    expect(op.responses["200"].headers?.["PAYMENT-RESPONSE"].schema.contentSchema.$ref).toBe("#/components/schemas/PaymentResponse");
    expect(doc.paths["/v1/agents/{agentId}/mcp"].post.responses).toHaveProperty("404");
    // The 402's body is strict about the one way to pay.
    const required = componentValidator("PaymentRequired");
    expect(required({ x402Version: 2, error: "Payment required", resource: { url: "https://x.example/a" }, accepts: [] })).toBe(false);
  });

  it("rejects bodies the API would not send (the schemas are strict)", () => {
    const validate = componentValidator("StatusResponse");
    expect(validate({ rental: {}, agent: {} })).toBe(false);
    expect(componentValidator("AvailabilityResponse")({ rental_id: "x" })).toBe(false);
    const chatResponse = componentValidator("ChatResponse");
    expect(chatResponse({ success: true, agent: "a", response: "x", rental: { id: "x", ends_at: "y" }, extra: 1 })).toBe(false);
  });
});
