// /dev/channels rendered on the server: the platforms it simulates (WhatsApp among them), the one
// asked for in ?platform= selected with its hint, and what that platform's bot sent (read from the
// platform mock's record, WhatsApp's Cloud API text messages included).
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

const render = async (query: Record<string, string>) => {
  const { default: DevChannelsPage } = await import("@/app/dev/channels/page");
  return renderToStaticMarkup(await DevChannelsPage({ searchParams: Promise.resolve(query) }));
};

describe("/dev/channels", () => {
  it("has a WhatsApp tab: it sends to the WhatsApp route and lists what the WhatsApp bot sent", async () => {
    env.DEV_PLATFORM_MOCK_URL = mock.url;
    await fetch(`${mock.url}/whatsapp/v21.0/100000000000001/messages`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ messaging_product: "whatsapp", to: "15551234567", type: "text", text: { body: "Connected to Page Agent." } }),
    });
    const html = await render({ platform: "WhatsApp", user: "15551234567", text: "start abcd1234" });
    for (const platform of ["Telegram", "Discord", "Slack", "Teams"])
      expect(html).toContain(`<option value="${platform}">${platform}</option>`);
    expect(html).toContain('<option value="GoogleChat">Google Chat</option>');
    expect(html).toMatch(/<select name="platform">[\s\S]*<option value="WhatsApp" selected="">WhatsApp<\/option>/);
    expect(html).toContain("<code>/api/channels/whatsapp</code> signed as WhatsApp would sign it");
    expect(html).toContain('placeholder="start &lt;code&gt;, status, extend, stop, help, or any message"');
    expect(html).toContain('value="start abcd1234"');
    expect(html).toContain('value="15551234567"');
    expect(html).toContain("What the WhatsApp bot sent (newest first)");
    expect(html).toContain("Connected to Page Agent.");
  });

  it("falls back to Telegram for a platform it does not simulate", async () => {
    env.DEV_PLATFORM_MOCK_URL = mock.url;
    const html = await render({ platform: "Signal" });
    expect(html).toContain("What the Telegram bot sent (newest first)");
    expect(html).not.toContain("Connected to Page Agent.");
  });

  it("does not exist without the platform mock (outside npm run dev)", async () => {
    env.DEV_PLATFORM_MOCK_URL = undefined;
    await expect(render({})).rejects.toMatchObject({ digest: expect.stringContaining("404") });
  });
});
