import { execFile, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as completions } from "@/app/api/v1/chat/completions/route";
import { mcpClientConfigs, openAiExamples } from "@/lib/docs/developer-examples";
import { RENTAL_CODE_PLACEHOLDER } from "@/lib/docs/renter-api-examples";
import { makeAgent, makeRental, startWebhook } from "@/test/fixtures";
import { serveRoutes } from "@/test/serve-routes";

// The OpenAI examples of the renters' page run as a reader would (node; python3 when its openai
// package is installed) against the real handler served over HTTP; the MCP configurations are
// valid JSON naming this site's endpoint and the code as a Bearer token.

let api: Awaited<ReturnType<typeof serveRoutes>>;
let code: string;
let hook: Awaited<ReturnType<typeof startWebhook>>;

beforeAll(async () => {
  hook = await startWebhook((req, res) =>
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(`Echo: ${JSON.parse(req.body).message}`)),
  );
  const agent = await makeAgent({ webhook: { url: hook.url, token: randomBytes(24).toString("base64url") } });
  code = (await makeRental(agent.id)).id.slice(0, 8);
  api = await serveRoutes([{ method: "POST", path: /^\/api\/v1\/chat\/completions$/, handler: completions }]);
});

afterAll(async () => {
  await api.close();
  await hook.close();
});

const hasPythonOpenAi = spawnSync("python3", ["-c", "import openai"]).status === 0;
const run = (label: string, source: string) =>
  label === "Python"
    ? promisify(execFile)("python3", ["-c", source])
    : promisify(execFile)(process.execPath, ["--input-type=module", "-e", source]);

describe("the OpenAI client examples", () => {
  for (const { label } of openAiExamples("https://rent.example")) {
    it.skipIf(label === "Python" && !hasPythonOpenAi)(`${label}: prints the agent's reply`, async () => {
      const example = openAiExamples(api.origin).find((e) => e.label === label)!;
      expect(example.code).toContain(`${api.origin}/api/v1`);
      const { stdout } = await run(label, example.code.replaceAll(RENTAL_CODE_PLACEHOLDER, code));
      expect(stdout).toContain("Echo: Hello! What can you do?");
    });
  }
});

describe("the MCP configurations", () => {
  it("name this site's /api/v1/mcp and send the code as a Bearer token", () => {
    const configs = mcpClientConfigs("https://rent.example/");
    expect(configs.map((c) => c.label.split(" (")[0])).toEqual(["Claude Code", "Claude Desktop", "Cursor", "VS Code"]);
    for (const config of configs) {
      expect(config.code).toContain("https://rent.example/api/v1/mcp");
      expect(config.code).toMatch(/Bearer (<RENTAL_CODE>|\$\{input:rental-code\})/);
      if (config.code.startsWith("{")) expect(() => JSON.parse(config.code)).not.toThrow();
    }
  });
});
