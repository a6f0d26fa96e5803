// Connect's test result does not tell an owner whether a host name exists inside the service's
// network: a name that does not resolve and one that resolves to a private address read the same.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectAgentWebhook } from "@/lib/agents/connect-agent-webhook";
import { env } from "@/lib/env";
import { makeAgent } from "@/test/fixtures";

const saved = env.ALLOW_PRIVATE_WEBHOOKS;
beforeAll(() => {
  Object.assign(env, { ALLOW_PRIVATE_WEBHOOKS: false }); // as in production
});
afterAll(() => {
  Object.assign(env, { ALLOW_PRIVATE_WEBHOOKS: saved });
});

describe("connectAgentWebhook and private or unknown hosts", () => {
  it("gives one error for an unresolvable name and a blocked one, and leaves the agent offline", async () => {
    const token = "t".repeat(40);
    const results = [];
    for (const url of [
      "https://no-such-host.invalid/hooks/agent",
      "https://localhost/hooks/agent",
      "https://[::ffff:0:a00:1]/hooks/agent",
    ]) {
      const agent = await makeAgent();
      const { agent: updated, test } = await connectAgentWebhook(agent.ownerId, agent.id, { url, token });
      expect(updated.status, url).toBe("offline");
      results.push(test);
    }
    for (const test of results) {
      expect(test).toMatchObject({
        ok: false,
        statusCode: null,
        error: "blocked: host does not resolve to a public address",
      });
    }
  });
});
