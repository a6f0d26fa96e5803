import { randomBytes } from "node:crypto";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as availability } from "@/app/api/v1/availability/route";
import { POST as completions } from "@/app/api/v1/chat/completions/route";
import { POST as chat } from "@/app/api/v1/chat/route";
import { GET as models } from "@/app/api/v1/models/route";
import { GET as openapi } from "@/app/api/v1/openapi.json/route";
import { GET as status } from "@/app/api/v1/status/route";
import { renterRequest } from "@/test/api-requests";
import { makeAgent, makeRental, startWebhook } from "@/test/fixtures";

type Doc = {
  openapi: string;
  info: { version: string };
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
      "/v1/availability",
      "/v1/chat",
      "/v1/chat/completions",
      "/v1/mcp",
      "/v1/models",
      "/v1/status",
    ]);
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
  });

  it("rejects bodies the API would not send (the schemas are strict)", () => {
    const validate = componentValidator("StatusResponse");
    expect(validate({ rental: {}, agent: {} })).toBe(false);
    expect(componentValidator("AvailabilityResponse")({ rental_id: "x" })).toBe(false);
    const chatResponse = componentValidator("ChatResponse");
    expect(chatResponse({ success: true, agent: "a", response: "x", rental: { id: "x", ends_at: "y" }, extra: 1 })).toBe(false);
  });
});
