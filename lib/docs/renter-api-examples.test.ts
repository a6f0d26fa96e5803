import { execFile, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as chat } from "@/app/api/v1/chat/route";
import { GET as status } from "@/app/api/v1/status/route";
import { RENTAL_CODE_PLACEHOLDER, renterApiExamples } from "@/lib/docs/renter-api-examples";
import { makeAgent, makeRental, startWebhook, uniqueIp } from "@/test/fixtures";

// Every example of the renters' page, run as a reader would run it (curl, python3, node) against
// the renter API's real handlers, served over HTTP here, with the placeholder replaced by a code.

const routes: Record<string, (req: Request) => Promise<Response>> = { "POST /api/v1/chat": chat, "GET /api/v1/status": status };
const ip = uniqueIp();

async function toRequest(req: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers(req.headers as Record<string, string>);
  headers.set("x-forwarded-for", ip);
  const body = chunks.length ? Buffer.concat(chunks) : undefined;
  return new Request(`http://localhost${req.url}`, { method: req.method, headers, body });
}

let api: Server;
let origin: string;
let code: string;
let hook: Awaited<ReturnType<typeof startWebhook>>;

beforeAll(async () => {
  const token = randomBytes(24).toString("base64url");
  hook = await startWebhook((req, res) =>
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(`Echo: ${JSON.parse(req.body).message}`)),
  );
  const agent = await makeAgent({ webhook: { url: hook.url, token } });
  code = (await makeRental(agent.id)).id.slice(0, 8);
  api = createServer(async (req, res) => {
    const handler = routes[`${req.method} ${req.url}`];
    const answer = handler ? await handler(await toRequest(req)) : new Response("{}", { status: 404 });
    res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});

afterAll(async () => {
  api.closeAllConnections();
  await new Promise((resolve) => api.close(resolve));
  await hook.close();
});

const hasPythonRequests = spawnSync("python3", ["-c", "import requests"]).status === 0;
const run: Record<string, (code: string) => Promise<{ stdout: string }>> = {
  curl: (code) => promisify(execFile)("bash", ["-c", code]),
  Python: (code) => promisify(execFile)("python3", ["-c", code]),
  JavaScript: (code) => promisify(execFile)(process.execPath, ["--input-type=module", "-e", code]),
};
const skip = (label: string) => label === "Python" && !hasPythonRequests;
const withCode = (example: string) => example.replaceAll(RENTAL_CODE_PLACEHOLDER, code);

describe("the renter API examples", () => {
  it("name the site's own origin and the placeholder code in the X-API-Key header", () => {
    const { chat, status } = renterApiExamples("https://rent.example/");
    for (const example of [...chat, ...status]) {
      expect(example.code).toContain("https://rent.example/api/v1/");
      expect(example.code).toMatch(/X-API-Key["']?: ["']?<RENTAL_CODE>/);
    }
    expect(chat.map((e) => e.label)).toEqual(["curl", "Python", "JavaScript"]);
  });

  for (const label of ["curl", "Python", "JavaScript"]) {
    it.skipIf(skip(label))(`${label}: the chat example gets the agent's reply`, async () => {
      const example = renterApiExamples(origin).chat.find((e) => e.label === label)!;
      const { stdout } = await run[label](withCode(example.code));
      expect(stdout).toContain("Echo: Hello! What can you do?");
    });

    it.skipIf(skip(label))(`${label}: the status example reads the rental`, async () => {
      const example = renterApiExamples(origin).status.find((e) => e.label === label)!;
      const { stdout } = await run[label](withCode(example.code));
      expect(stdout).toMatch(/active/);
    });
  }
});
