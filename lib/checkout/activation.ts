// How a renter starts using a rental on the channel chosen at checkout.
export type CheckoutChannel = "API" | "Telegram" | "Discord" | "Slack";

// A ready-to-paste request to the renter API; the code is the API key.
export function chatCurl(origin: string, code: string, message = "Hello! What can you do?"): string {
  const body = JSON.stringify({ message }).replace(/'/g, "'\\''");
  return [
    `curl -X POST '${origin.replace(/\/+$/, "")}/api/v1/chat' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H 'X-API-Key: ${code}' \\`,
    `  -d '${body}'`,
  ].join("\n");
}

export type ActivationStep = { text: string; command?: string };

export function activationSteps(channel: CheckoutChannel, code: string, origin: string): ActivationStep[] {
  if (channel === "API") {
    return [
      { text: "Send messages to the agent over HTTPS with your rental code as the API key (X-API-Key header, or Authorization: Bearer):", command: chatCurl(origin, code) },
      { text: "Check your rental's status and time left at any time:", command: `curl '${origin.replace(/\/+$/, "")}/api/v1/status' -H 'X-API-Key: ${code}'` },
    ];
  }
  const where = channel === "Slack" ? "in Slack (a direct message to the agent's app)" : `on ${channel} (a direct message to the agent's bot)`;
  return [
    { text: `Open the agent ${where}.` },
    { text: "Send this message to activate your rental:", command: `/activate ${code}` },
    { text: "The bot confirms, then answers your messages until the rental ends. Keep the code: it is the only key to this rental." },
  ];
}

// "59 min 08 s", "23 h 59 min", "29 days 23 h"; "ended" at zero.
export function formatRemaining(ms: number): string {
  if (ms <= 0) return "ended";
  const s = Math.floor(ms / 1000);
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = s % 60;
  if (days > 0) return `${days} ${days === 1 ? "day" : "days"} ${hours} h`;
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, "0")} min`;
  return `${minutes} min ${String(seconds).padStart(2, "0")} s`;
}
