// /dev/channels — the three chat bots without any platform account (npm run dev only): type as a
// Telegram, Discord or Slack user; the text goes to the real routes, signed as the platform would
// sign it, and what the bots sent back (recorded by the platform mock) is listed below.
import { notFound } from "next/navigation";
import { env } from "@/lib/env";

export const dynamic = "force-dynamic";

type Call = { seq: number; platform: string; method: string; body: Record<string, unknown> };
type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const HINT: Record<string, string> = {
  Telegram: "/start <code>, /status, /stop, /help, or any message",
  Discord: "/start <code>, /chat <message>, /status, /stop (plain text is a /chat message)",
  Slack: "/agent start <code>, /agent status, /agent stop, or any message (a direct message)",
};

export default async function DevChannelsPage({ searchParams }: Props) {
  if (!env.DEV_PLATFORM_MOCK_URL) notFound();
  const query = await searchParams;
  const platform = typeof query.platform === "string" && query.platform in HINT ? query.platform : "Telegram";
  const user = typeof query.user === "string" && /^\d{1,15}$/.test(query.user) ? query.user : "1001";
  const calls: Call[] = await fetch(`${env.DEV_PLATFORM_MOCK_URL}/_calls`, { cache: "no-store" })
    .then((r) => r.json())
    .catch(() => []);
  const said = calls
    .filter((c) => c.platform === platform && typeof (c.body.text ?? c.body.content) === "string")
    .slice(-30)
    .reverse();
  return (
    <main id="main" tabIndex={-1} style={{ maxWidth: 860, margin: "0 auto", padding: "32px 24px", lineHeight: 1.5 }}>
      <h1 style={{ marginBottom: 4 }}>Chat bots (development)</h1>
      <p className="muted" style={{ marginTop: 0 }}>
        Type as a chat user. The text goes to <code>/api/channels/{platform.toLowerCase()}</code> signed as {platform} would sign it; the
        bot&apos;s answers arrive a moment later: reload to see them. Rental codes are on your dashboard (or printed by npm run dev); a
        rental already connected to another user moves here with the command its page&apos;s <strong>Move to another chat account</strong>{" "}
        gives (paste it as it is).
      </p>
      <form action="/api/dev/channels" method="post" style={{ display: "grid", gap: 8, marginBottom: 24 }}>
        <label>
          Platform{" "}
          <select name="platform" defaultValue={platform}>
            {Object.keys(HINT).map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <label>
          User number <input name="user" defaultValue={user} inputMode="numeric" pattern="\d{1,15}" required />
        </label>
        <label>
          Text <input name="text" required placeholder={HINT[platform]} style={{ width: "100%" }} />
        </label>
        <button type="submit" className="button button-primary">
          Send
        </button>
      </form>
      <h2>What the {platform} bot sent (newest first)</h2>
      {said.length === 0 && <p>Nothing yet.</p>}
      {said.map((c) => (
        <article key={c.seq} style={{ border: "1px solid #ddd", borderRadius: 6, padding: "8px 12px", margin: "8px 0" }}>
          <div className="muted" style={{ fontSize: 14 }}>
            {c.method}
          </div>
          <pre style={{ whiteSpace: "pre-wrap", fontFamily: "inherit", margin: 0 }}>{String(c.body.text ?? c.body.content)}</pre>
        </article>
      ))}
    </main>
  );
}
