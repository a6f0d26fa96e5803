import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError } from "@/lib/http/api-error";
import { parseFormBody } from "@/lib/http/parse-form-body";
import { parseJsonBody } from "@/lib/http/parse-json-body";
import { readBodyText } from "@/lib/http/read-body";

// A client that never stops sending: 1 KiB chunks, counted as the reader pulls them.
function endlessBody() {
  const sent = { bytes: 0 };
  const chunk = new Uint8Array(1024).fill(0x61);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      sent.bytes += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, sent };
}

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request("http://localhost/api/x", { method: "POST", body, headers, duplex: "half" } as RequestInit);

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("readBodyText", () => {
  it("returns a body up to the cap", async () => {
    expect(await readBodyText(post("x".repeat(100)), 100)).toBe("x".repeat(100));
    expect(await readBodyText(new Request("http://localhost/api/x"), 100)).toBe("");
  });

  it("413 for a body one byte over the cap", async () => {
    const error = await refusal(readBodyText(post("x".repeat(101)), 100));
    expect([error.status, error.message]).toEqual([413, "Request body is larger than 100 bytes."]);
  });

  it("413 from a declared Content-Length alone, before reading anything", async () => {
    const { stream, sent } = endlessBody();
    const error = await refusal(readBodyText(post(stream, { "content-length": "5000000" }), 4096));
    expect(error.status).toBe(413);
    expect(sent.bytes).toBeLessThanOrEqual(2 * 1024); // what the stream queued by itself, nothing read
  });

  it("413 for a body that never ends, having read only a little past the cap", async () => {
    const { stream, sent } = endlessBody();
    const error = await refusal(readBodyText(post(stream), 16 * 1024));
    expect(error.status).toBe(413);
    expect(sent.bytes).toBeLessThanOrEqual(16 * 1024 + 2 * 1024);
  });

  it("ignores a Content-Length that is not a number and counts the bytes instead", async () => {
    expect(await readBodyText(post("abc", { "content-length": "lots" }), 10)).toBe("abc");
    expect((await refusal(readBodyText(post("x".repeat(11), { "content-length": "-1" }), 10))).status).toBe(413);
  });
});

describe("parseJsonBody", () => {
  const schema = z.object({ message: z.string() });
  it("413 for a JSON body over the cap; 400 for the other failures", async () => {
    const json = { "content-type": "application/json" };
    expect((await refusal(parseJsonBody(post(JSON.stringify({ message: "x".repeat(200) }), json), schema, 100))).status).toBe(413);
    expect((await refusal(parseJsonBody(post("{", json), schema, 100))).status).toBe(400);
    expect((await refusal(parseJsonBody(post("{}", { "content-type": "text/plain" }), schema, 100))).status).toBe(400);
    expect(await parseJsonBody(post('{"message":"hi"}', json), schema, 100)).toEqual({ message: "hi" });
  });
});

describe("parseFormBody", () => {
  const form = { "content-type": "application/x-www-form-urlencoded" };

  it("reads a url-encoded or multipart form", async () => {
    expect((await parseFormBody(post("token=abc&x=1", form), 100))?.get("token")).toBe("abc");
    const multipart = new FormData();
    multipart.set("token", "def");
    expect((await parseFormBody(new Request("http://localhost/api/x", { method: "POST", body: multipart }), 1000))?.get("token")).toBe(
      "def",
    );
  });

  it("null for a body that is not a form, without reading it", async () => {
    const { stream, sent } = endlessBody();
    expect(await parseFormBody(post(stream, { "content-type": "application/json" }), 100)).toBeNull();
    expect(sent.bytes).toBeLessThanOrEqual(2 * 1024);
    expect(await parseFormBody(post("--x\r\nbroken", { "content-type": "multipart/form-data; boundary=x" }), 100)).toBeNull();
  });

  it("413 for a form that never ends, having read only a little past the cap", async () => {
    const { stream, sent } = endlessBody();
    const error = await refusal(parseFormBody(post(stream, form), 4096));
    expect([error.status, error.message]).toEqual([413, "Request body is larger than 4096 bytes."]);
    expect(sent.bytes).toBeLessThanOrEqual(4096 + 2 * 1024);
  });
});
