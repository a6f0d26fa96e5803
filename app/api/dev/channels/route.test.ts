// /dev/channels' poll: what a platform's bot sent since the page last looked, from the platform
// mock's record (npm run dev only).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/dev/channels/route";
import { env } from "@/lib/env";
import { type ChatPlatformMock, startChatPlatformMock } from "@/scripts/chat-platform-mock";

let mock: ChatPlatformMock;
beforeAll(async () => {
  mock = await startChatPlatformMock();
});
afterAll(async () => {
  env.DEV_PLATFORM_MOCK_URL = undefined;
  await mock.close();
});

const poll = (query: string) => GET(new Request(`http://localhost/api/dev/channels?${query}`));
// What a bot's API call looks like to the mock.
const botCall = (path: string, body: unknown) =>
  fetch(`${mock.url}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

describe("GET /api/dev/channels", () => {
  it("is not there outside npm run dev (no platform mock)", async () => {
    env.DEV_PLATFORM_MOCK_URL = undefined;
    const res = await poll("platform=Telegram");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "The chat platform mock runs only under npm run dev." });
  });

  it("lists the platform's bot messages since the given call, and where to look next", async () => {
    env.DEV_PLATFORM_MOCK_URL = mock.url;
    const start = mock.calls().length;
    await botCall("/telegram/bot1000:t/sendChatAction", { chat_id: "1001", action: "typing" });
    await botCall("/telegram/bot1000:t/sendMessage", { chat_id: "1001", text: "Connected to Echo." });
    await botCall("/discord/webhooks/1/tok/messages/@original", { content: "Not for Telegram" });
    const res = await poll(`platform=Telegram&since=${start}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({
      messages: [{ seq: start + 1, method: "sendMessage", text: "Connected to Echo." }],
      next: start + 3,
    });
    // Nothing new since then.
    expect(await (await poll(`platform=Telegram&since=${start + 3}`)).json()).toEqual({ messages: [], next: start + 3 });
    expect((await (await poll(`platform=Discord&since=${start}`)).json()).messages.map((m: { text: string }) => m.text)).toEqual([
      "Not for Telegram",
    ]);
  });

  it("lists the WhatsApp bot's text messages (the Cloud API's text.body), not its read receipts or typing", async () => {
    env.DEV_PLATFORM_MOCK_URL = mock.url;
    const start = mock.calls().length;
    await botCall("/whatsapp/v21.0/100000000000001/messages", {
      messaging_product: "whatsapp",
      status: "read",
      message_id: "wamid.in1",
      typing_indicator: { type: "text" },
    });
    await botCall("/whatsapp/v21.0/100000000000001/messages", {
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: "15551234567",
      type: "text",
      text: { preview_url: false, body: "Connected to Echo." },
    });
    await botCall("/telegram/bot1000:t/sendMessage", { chat_id: "1001", text: "Not for WhatsApp" });
    const res = await poll(`platform=WhatsApp&since=${start}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      messages: [{ seq: start + 1, method: "messages", text: "Connected to Echo." }],
      next: start + 3,
    });
  });

  it("refuses a platform it does not simulate or a bad position (400)", async () => {
    env.DEV_PLATFORM_MOCK_URL = mock.url;
    for (const query of ["platform=Signal", "platform=API", "platform=Telegram&since=-1", "platform=Telegram&since=x"]) {
      const res = await poll(query);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: "Ask for ?platform=Telegram, Discord, Slack, WhatsApp, Teams or GoogleChat, and since=<a number>.",
      });
    }
  });
});
