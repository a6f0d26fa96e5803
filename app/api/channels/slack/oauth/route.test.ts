// "Add to Slack" against the platform mock: the state round trip, the token stored encrypted and
// bound to its workspace, and the bot then answering that workspace with its own token.
import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ChatPlatformMock, startChatPlatformMock } from "@/scripts/chat-platform-mock";
import { settleAfter } from "@/test/after-at-once";

vi.mock("next/server", async (importOriginal) =>
  (await import("@/test/after-at-once")).withAfterAtOnce(await importOriginal<typeof import("next/server")>()),
);

const { GET: INSTALL } = await import("@/app/api/channels/slack/install/route");
const { GET: OAUTH } = await import("@/app/api/channels/slack/oauth/route");
const { POST: SLACK } = await import("@/app/api/channels/slack/route");
const { env } = await import("@/lib/env");
const { db } = await import("@/lib/db");
const { slackCommandRequest } = await import("@/lib/channels/dev/slack-requests");

let mock: ChatPlatformMock;
beforeAll(async () => {
  mock = await startChatPlatformMock();
  Object.assign(env, {
    SLACK_SIGNING_SECRET: "oauth-test-signing-secret",
    SLACK_CLIENT_ID: "111.222",
    SLACK_CLIENT_SECRET: "client-secret",
    SLACK_BOT_TOKEN: undefined,
    SLACK_API_URL: `${mock.url}/slack/`,
  });
});
afterAll(() => mock.close());

const ask = (path: string, cookie?: string) => new Request(`http://localhost${path}`, { headers: cookie ? { cookie } : {} });

describe("Add to Slack", () => {
  it("sends the browser to Slack with a state it remembers, and stores the workspace's token encrypted on the way back", async () => {
    const started = await INSTALL(ask("/api/channels/slack/install"));
    expect(started.status).toBe(302);
    const location = new URL(started.headers.get("location")!);
    expect(location.origin + location.pathname).toBe("https://slack.com/oauth/v2/authorize");
    expect(location.searchParams.get("client_id")).toBe("111.222");
    expect(location.searchParams.get("scope")).toBe("commands,chat:write,im:history,im:write");
    const state = location.searchParams.get("state")!;
    const cookie = started.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^ars_slack_state=[\w-]+; Path=\/api\/channels\/slack; Max-Age=600; HttpOnly; SameSite=Lax/);

    // Another state (or none) is refused: nothing is exchanged.
    const forged = await OAUTH(ask(`/api/channels/slack/oauth?code=abc&state=other`, cookie.split(";")[0]));
    expect(forged.status).toBe(400);
    expect(await OAUTH(ask(`/api/channels/slack/oauth?code=abc&state=${state}`))).toHaveProperty("status", 400);
    expect(mock.calls().some((c) => c.method === "oauth.v2.access")).toBe(false);

    const done = await OAUTH(ask(`/api/channels/slack/oauth?code=abc&state=${state}`, cookie.split(";")[0]));
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/channels/slack-added");
    const exchange = mock.calls().find((c) => c.method === "oauth.v2.access");
    expect(exchange?.body).toMatchObject({ client_id: "111.222", client_secret: "client-secret", code: "abc" });
    const installation = await db.slackInstallation.findUniqueOrThrow({ where: { teamId: "TMOCK" } });
    expect(installation.botTokenCipher).not.toContain("xoxb-mock-installed");

    // That workspace's commands are answered with its own token.
    await SLACK(
      slackCommandRequest(
        "http://localhost/api/channels/slack",
        "oauth-test-signing-secret",
        { team: "TMOCK", user: `U${randomInt(1e9, 9e9)}` },
        "help",
      ),
    );
    await settleAfter();
    const post = mock.calls().find((c) => c.method === "chat.postMessage");
    expect(post?.auth ?? String(post?.body.token)).toContain("xoxb-mock-installed");
  });

  it("answers 404 where no Slack client id is set", async () => {
    const saved = env.SLACK_CLIENT_ID;
    Object.assign(env, { SLACK_CLIENT_ID: undefined });
    try {
      const res = await INSTALL(ask("/api/channels/slack/install"));
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: expect.stringContaining("not set up") });
    } finally {
      Object.assign(env, { SLACK_CLIENT_ID: saved });
    }
  });
});
