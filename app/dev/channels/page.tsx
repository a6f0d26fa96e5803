// /dev/channels — the chat bots without any platform account (npm run dev only): type as a
// Telegram, Discord, Slack, WhatsApp, Teams or Google Chat user; the text goes to the real routes, signed as
// the platform would sign it, and what the bots sent back (recorded by the platform mock) is listed
// below and kept current. `?text=` fills in what to send: the checkout's and the rental page's links do.
import { notFound } from "next/navigation";
import { channelName } from "@/lib/channels/channel-name";
import { listBotMessages } from "@/lib/channels/dev/list-bot-messages";
import { env } from "@/lib/env";
import { BotMessages } from "./bot-messages";

export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const HINT = {
  Telegram: "/start <code>, /status, /stop, /help, or any message",
  Discord: "/start code:<code>, /chat message:<text>, /status, /stop (plain text is a /chat message)",
  Slack: "/agent start <code>, /agent status, /agent stop, or any message (a direct message)",
  WhatsApp: "start <code>, status, extend, stop, help, or any message",
  Teams: "start <code>, status, extend, stop, help, or any message (a personal chat)",
  GoogleChat: "start <code>, status, extend, stop, help, or any message (a direct message)",
} as const;
type Simulated = keyof typeof HINT;
const isSimulated = (value: unknown): value is Simulated => typeof value === "string" && Object.hasOwn(HINT, value);

// Each bot's route, under /api/channels.
const ROUTE: Record<Simulated, string> = {
  Telegram: "telegram",
  Discord: "discord",
  Slack: "slack",
  WhatsApp: "whatsapp",
  Teams: "teams",
  GoogleChat: "gchat",
};

export default async function DevChannelsPage({ searchParams }: Props) {
  if (!env.DEV_PLATFORM_MOCK_URL) notFound();
  const query = await searchParams;
  const platform: Simulated = isSimulated(query.platform) ? query.platform : "Telegram";
  const user = typeof query.user === "string" && /^\d{1,15}$/.test(query.user) ? query.user : "1001";
  const text = typeof query.text === "string" ? query.text.slice(0, 10_000) : "";
  const said = await listBotMessages(platform).catch(() => ({ messages: [], next: 0 }));
  return (
    <main id="main" tabIndex={-1} style={{ maxWidth: 860, margin: "0 auto", padding: "32px 24px", lineHeight: 1.5 }}>
      <h1 style={{ marginBottom: 4 }}>Chat bots (development)</h1>
      <p className="muted" style={{ marginTop: 0 }}>
        Type as a chat user. The text goes to <code>/api/channels/{ROUTE[platform]}</code> signed as {channelName(platform)} would sign it;
        the bot&apos;s answers appear below a moment later. Rental codes are on your dashboard (or printed by npm run dev); a rental already
        connected to another user moves here with the command its page&apos;s <strong>Move to another chat account</strong> gives (paste it
        as it is).
      </p>
      <form action="/api/dev/channels" method="post" style={{ display: "grid", gap: 8, marginBottom: 24 }}>
        <label>
          Platform{" "}
          <select name="platform" defaultValue={platform}>
            {Object.keys(HINT).map((p) => (
              <option key={p} value={p}>
                {channelName(p)}
              </option>
            ))}
          </select>
        </label>
        <label>
          User number <input name="user" defaultValue={user} inputMode="numeric" pattern="\d{1,15}" required />
        </label>
        <label>
          Text <input name="text" required defaultValue={text} placeholder={HINT[platform]} style={{ width: "100%" }} />
        </label>
        <button type="submit" className="button button-primary">
          Send
        </button>
      </form>
      <h2>What the {channelName(platform)} bot sent (newest first)</h2>
      <BotMessages platform={platform} messages={said.messages.slice(-30)} next={said.next} />
    </main>
  );
}
