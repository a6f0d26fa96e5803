// The renters' docs on chat apps, for WhatsApp: the number and its wa.me link where this service
// runs the bot, the commands as plain words, the 24-hour window; the simulator in development; and
// "not offered" without the settings.
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { ChatChannels } from "@/app/docs/renters/chat-channels";
import { env } from "@/lib/env";

const KEYS = [
  "WHATSAPP_ACCESS_TOKEN",
  "WHATSAPP_APP_SECRET",
  "WHATSAPP_PHONE_NUMBER_ID",
  "WHATSAPP_VERIFY_TOKEN",
  "WHATSAPP_PHONE_NUMBER",
  "WHATSAPP_API_URL",
  "DEV_PLATFORM_MOCK_URL",
] as const;
const saved = Object.fromEntries(KEYS.map((key) => [key, env[key]]));
afterEach(() => {
  Object.assign(env, saved);
});

const WHATSAPP = {
  WHATSAPP_ACCESS_TOKEN: "EAAG-docs-token",
  WHATSAPP_APP_SECRET: "docs-app-secret",
  WHATSAPP_PHONE_NUMBER_ID: "106540352242922",
  WHATSAPP_VERIFY_TOKEN: "docs-verify-token",
  WHATSAPP_PHONE_NUMBER: "15550100123",
  WHATSAPP_API_URL: "https://graph.facebook.com",
  DEV_PLATFORM_MOCK_URL: undefined,
};
// The WhatsApp part of the section: from its heading to the next one.
const whatsappPart = () => /<h3>WhatsApp<\/h3>([\s\S]*?)<h3>/.exec(renderToStaticMarkup(ChatChannels()))![1];

describe("/docs/renters: WhatsApp", () => {
  it("names the service's number with its wa.me link, the start message, the plain-word commands and the 24-hour window", () => {
    Object.assign(env, WHATSAPP);
    const html = renderToStaticMarkup(ChatChannels());
    expect(html).toContain("Chat apps: Telegram, Discord, Slack, WhatsApp, Teams and Google Chat");
    const part = whatsappPart();
    expect(part).toContain("<strong>Open in WhatsApp</strong>");
    expect(part).toContain('<a href="https://wa.me/15550100123">+15550100123</a>');
    expect(part).toContain("<code>start &lt;RENTAL_CODE&gt;</code>");
    for (const word of ["status", "extend", "stop", "help"]) expect(part).toContain(`<code>${word}</code>`);
    expect(part).toContain("“stop the car” goes to the agent");
    expect(part).toContain("only within 24 hours of your last message");
    expect(part).not.toContain("Not offered");
  });

  it("in development leads to the WhatsApp simulator instead of a number", () => {
    Object.assign(env, { ...WHATSAPP, DEV_PLATFORM_MOCK_URL: "http://127.0.0.1:4999", WHATSAPP_API_URL: "http://127.0.0.1:4999/whatsapp" });
    const part = whatsappPart();
    expect(part).toContain('<a href="/dev/channels?platform=WhatsApp">open the WhatsApp simulator</a>');
    expect(part).not.toContain("wa.me");
  });

  it("says it is not offered while a setting is missing", () => {
    Object.assign(env, { ...WHATSAPP, WHATSAPP_APP_SECRET: undefined });
    expect(whatsappPart()).toContain("Not offered on this service at the moment.");
  });
});
