import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { newSigningSecret } from "@/lib/agents/webhook-credentials";
import {
  healthCheckHeaders,
  healthCheckRequestExamples,
  messageHeaders,
  messageRequestExamples,
  minimalWebhooks,
  paidMessageHeaders,
  paidMessageRequestExample,
  SAMPLE_HEALTH_CHECK,
  SAMPLE_MESSAGE,
  SAMPLE_PAID_MESSAGE,
  signedWebhooks,
  WEBHOOK_TOKEN_PLACEHOLDER,
} from "@/lib/docs/webhook-examples";
import { checkWebhookHealth } from "@/lib/webhooks/check-webhook-health";
import { deliverChatMessage } from "@/lib/webhooks/deliver-chat-message";
import { startWebhook } from "@/test/fixtures";

const token = randomBytes(24).toString("base64url");
const agent = { id: SAMPLE_MESSAGE.body.agentId, name: SAMPLE_MESSAGE.agentName };
const { rental } = SAMPLE_MESSAGE.body;
const sample = {
  message: SAMPLE_MESSAGE.body.message,
  agent,
  rental: {
    ref: rental.ref,
    endsAt: new Date(rental.ends_at),
    durationType: rental.duration_type,
    channel: SAMPLE_MESSAGE.body.channel,
    sessionKey: SAMPLE_MESSAGE.body.sessionKey,
  },
};

// An example as the page shows it: header lines, a blank line, the JSON body.
function parseHttpExample(code: string) {
  const [head, body] = code.split("\n\n");
  const headers = Object.fromEntries(
    head
      .split("\n")
      .slice(1)
      .map((line) => line.split(": ", 2) as [string, string]),
  );
  return { headers, body: JSON.parse(body) };
}

describe("the webhook examples are what the service sends", () => {
  it("a message: the example's headers and body are those of a real delivery", async () => {
    const hook = await startWebhook((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('"ok"'));
    await deliverChatMessage({ url: hook.url, token }, sample);
    await hook.close();
    const [sent] = hook.received;
    for (const [name, value] of Object.entries(messageHeaders(token))) expect(sent.headers[name.toLowerCase()]).toBe(value);
    expect(JSON.parse(sent.body)).toEqual(SAMPLE_MESSAGE.body);

    const [http, curl] = messageRequestExamples();
    const shown = parseHttpExample(http.code);
    expect(shown.headers).toMatchObject({ Host: "agent.example.com", ...messageHeaders() });
    expect(shown.headers.Authorization).toBe(`Bearer ${WEBHOOK_TOKEN_PLACEHOLDER}`);
    expect(shown.body).toEqual(SAMPLE_MESSAGE.body);
    expect(curl.code).toContain(`-d '${JSON.stringify(SAMPLE_MESSAGE.body)}'`);
  });

  it("a paid answer's message: rental null, the payment, X-Payment-Ref and no X-Rental-Ref, as a real delivery", async () => {
    const hook = await startWebhook((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('"4"'));
    const { body } = SAMPLE_PAID_MESSAGE;
    await deliverChatMessage(
      { url: hook.url, token },
      { message: body.message, agent, payment: { ...body.payment, channel: body.channel, sessionKey: body.sessionKey } },
    );
    await hook.close();
    const [sent] = hook.received;
    for (const [name, value] of Object.entries(paidMessageHeaders(token))) expect(sent.headers[name.toLowerCase()]).toBe(value);
    expect(sent.headers["x-rental-ref"]).toBeUndefined();
    expect(JSON.parse(sent.body)).toEqual(body);
    const shown = parseHttpExample(paidMessageRequestExample().code);
    expect(shown.headers).toMatchObject({ Host: "agent.example.com", ...paidMessageHeaders() });
    expect(shown.body).toEqual(body);
  });

  it("a health check: the same headers and body fields as a real check, and no rental", async () => {
    const hook = await startWebhook((_req, res) => res.writeHead(204).end());
    expect((await checkWebhookHealth(agent, { url: hook.url, token })).ok).toBe(true);
    await hook.close();
    const [sent] = hook.received;
    for (const [name, value] of Object.entries(healthCheckHeaders(token))) expect(sent.headers[name.toLowerCase()]).toBe(value);
    expect(sent.headers["x-rental-ref"]).toBeUndefined();
    const body = JSON.parse(sent.body);
    expect(Object.keys(body)).toEqual(Object.keys(SAMPLE_HEALTH_CHECK.body));
    expect(body).toMatchObject({ type: "health_check", agentId: agent.id });

    expect(parseHttpExample(healthCheckRequestExamples()[0].code).body).toEqual(SAMPLE_HEALTH_CHECK.body);
  });
});

const hasPython = spawnSync("python3", ["--version"]).status === 0;
const hasPythonStandardWebhooks = spawnSync("python3", ["-c", "import standardwebhooks"]).status === 0;
const runners: Record<string, { skip: boolean; run: (code: string, env: NodeJS.ProcessEnv) => ChildProcess }> = {
  "Node.js": { skip: false, run: (code, env) => spawn(process.execPath, ["--input-type=module", "-e", code], { env }) },
  Python: { skip: !hasPython, run: (code, env) => spawn("python3", ["-c", code], { env }) },
};

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// The health check once the child's server listens: checks are repeated while the connection is
// refused (the process is still starting), for as long as it takes; the test's timeout bounds it.
async function healthyOnceStarted(url: string, creds: { token: string; signingSecret?: string }) {
  for (;;) {
    const health = await checkWebhookHealth(agent, { url, ...creds });
    if (!health.error?.startsWith("unreachable")) return health;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

let running: ChildProcess | undefined;
afterEach(() => {
  running?.kill();
  running = undefined;
});

describe.each(minimalWebhooks())("the minimal $label webhook", ({ label, code }) => {
  it.skipIf(runners[label].skip)("passes the health check, answers a message and refuses a wrong token", async () => {
    const port = await freePort();
    running = runners[label].run(code, { ...process.env, WEBHOOK_TOKEN: token, PORT: String(port) });
    const url = `http://127.0.0.1:${port}/hooks/agent`;
    expect(await healthyOnceStarted(url, { token })).toMatchObject({ ok: true, statusCode: 200 });

    expect(await deliverChatMessage({ url, token }, sample)).toMatchObject({ ok: true, reply: "You said: Hello, agent!" });
    expect(await deliverChatMessage({ url, token: `${token}x` }, sample)).toMatchObject({ ok: false, webhookStatus: 401 });
  });
});

describe.each(signedWebhooks())("the $label webhook that verifies signatures", ({ label, code }) => {
  const skip = label === "Python" ? !hasPythonStandardWebhooks : runners[label].skip;
  it.skipIf(skip)("accepts the service's signed calls and refuses another secret's or unsigned ones", async () => {
    const port = await freePort();
    const signingSecret = newSigningSecret();
    running = runners[label].run(code, { ...process.env, WEBHOOK_SIGNING_SECRET: signingSecret, PORT: String(port) });
    const url = `http://127.0.0.1:${port}/hooks/agent`;
    expect(await healthyOnceStarted(url, { token, signingSecret })).toMatchObject({ ok: true, statusCode: 200 });
    expect(await deliverChatMessage({ url, token, signingSecret }, sample)).toMatchObject({ ok: true, reply: "You said: Hello, agent!" });
    expect(await deliverChatMessage({ url, token, signingSecret: newSigningSecret() }, sample)).toMatchObject({ webhookStatus: 401 });
    expect(await deliverChatMessage({ url, token }, sample)).toMatchObject({ webhookStatus: 401 });
  });
});
