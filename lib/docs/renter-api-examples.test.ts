import { execFile, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as availability } from "@/app/api/v1/availability/route";
import { POST as chat } from "@/app/api/v1/chat/route";
import { GET as status } from "@/app/api/v1/status/route";
import { RENTAL_CODE_PLACEHOLDER, RENTER_API_REPLIES, renterApiExamples } from "@/lib/docs/renter-api-examples";
import { availabilityResponseSchema, chatResponseSchema, statusResponseSchema } from "@/lib/schemas/renter-api";
import { makeAgent, makeRental, startWebhook } from "@/test/fixtures";
import { serveRoutes } from "@/test/serve-routes";

// Every example of the renters' page, run as a reader would run it (curl, python3, node) against
// the renter API's real handlers, served over HTTP here, with the placeholder replaced by a code.

let api: Awaited<ReturnType<typeof serveRoutes>>;
let code: string;
let hook: Awaited<ReturnType<typeof startWebhook>>;

beforeAll(async () => {
  const token = randomBytes(24).toString("base64url");
  hook = await startWebhook((req, res) =>
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(`Echo: ${JSON.parse(req.body).message}`)),
  );
  const agent = await makeAgent({ webhook: { url: hook.url, token } });
  code = (await makeRental(agent.id)).id.slice(0, 8);
  api = await serveRoutes([
    { method: "POST", path: /^\/api\/v1\/chat$/, handler: chat },
    { method: "GET", path: /^\/api\/v1\/status$/, handler: status },
    { method: "GET", path: /^\/api\/v1\/availability$/, handler: availability },
  ]);
});

afterAll(async () => {
  await api.close();
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
    const { chat, status, availability } = renterApiExamples("https://rent.example/");
    for (const example of [...chat, ...status, ...availability]) {
      expect(example.code).toContain("https://rent.example/api/v1/");
      expect(example.code).toMatch(/X-API-Key["']?: ["']?<RENTAL_CODE>/);
    }
    expect(chat.map((e) => e.label)).toEqual(["curl", "Python", "JavaScript"]);
  });

  it("show answers of the API's own shape, no field more or less", () => {
    expect(chatResponseSchema.parse(RENTER_API_REPLIES.chat)).toEqual(RENTER_API_REPLIES.chat);
    expect(statusResponseSchema.parse(RENTER_API_REPLIES.status)).toEqual(RENTER_API_REPLIES.status);
    expect(availabilityResponseSchema.parse(RENTER_API_REPLIES.availability)).toEqual(RENTER_API_REPLIES.availability);
    // The sample is the rule's own answer: 3 minutes down of a day's 1,440, within the allowance.
    expect(RENTER_API_REPLIES.availability).toMatchObject({
      minutes_total: 43_200,
      minutes_measured: 1440,
      minutes_down: 3,
      down_minutes: ["2026-11-21T14:07:00.000Z", "2026-11-21T14:08:00.000Z", "2026-11-21T14:09:00.000Z"],
      uptime_percent: 99.79,
      guarantee_percent: 99,
      refund_due_usdc: "0",
    });
  });

  for (const label of ["curl", "Python", "JavaScript"]) {
    it.skipIf(skip(label))(`${label}: the chat example gets the agent's reply`, async () => {
      const example = renterApiExamples(api.origin).chat.find((e) => e.label === label)!;
      const { stdout } = await run[label](withCode(example.code));
      expect(stdout).toContain("Echo: Hello! What can you do?");
    });

    it.skipIf(skip(label))(`${label}: the availability example reads the rental's minutes`, async () => {
      const example = renterApiExamples(api.origin).availability.find((e) => e.label === label)!;
      const { stdout } = await run[label](withCode(example.code));
      expect(stdout).toMatch(label === "curl" ? /"refund_due_usdc":"0"/ : /100 % up, 0 minutes down, 0 USDC due back/);
    });

    it.skipIf(skip(label))(`${label}: the status example reads the rental`, async () => {
      const example = renterApiExamples(api.origin).status.find((e) => e.label === label)!;
      const { stdout } = await run[label](withCode(example.code));
      expect(stdout).toMatch(/active/);
    });
  }
});
