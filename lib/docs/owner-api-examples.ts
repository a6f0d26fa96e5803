import type { CodeExample } from "@/lib/docs/code-example";
import { WEBHOOK_TOKEN_PLACEHOLDER } from "@/lib/docs/webhook-examples";

// The owner API's everyday requests as curl commands for the owners' docs page (docs/owner-api.md
// has them all): the key and the agent's id stay placeholders; the host is the site's own.
export const OWNER_API_KEY_PLACEHOLDER = "<OWNER_API_KEY>";
export const AGENT_ID_PLACEHOLDER = "<AGENT_ID>";

const SAMPLE_LISTING = {
  name: "DocsBot",
  description: "Answers questions about my product documentation.",
  category: "support",
  channels: ["API"],
  pricePerHour: 2,
  pricePerDay: 30,
};

function curl(method: "GET" | "POST" | "PATCH", url: string, body?: unknown): string {
  const lines = [`curl${method === "GET" ? "" : ` -X ${method}`} '${url}'`, `  -H 'Authorization: Bearer ${OWNER_API_KEY_PLACEHOLDER}'`];
  if (body !== undefined) lines.push("  -H 'Content-Type: application/json'", `  -d '${JSON.stringify(body).replace(/'/g, "'\\''")}'`);
  return lines.join(" \\\n");
}

export function ownerApiExamples(origin: string): {
  create: CodeExample;
  connect: CodeExample;
  list: CodeExample;
  sellPerMessage: CodeExample;
} {
  const agents = `${origin.replace(/\/+$/, "")}/api/public/agents`;
  return {
    create: { label: "Create a listing", code: curl("POST", agents, SAMPLE_LISTING) },
    connect: {
      label: "Connect its webhook (tested at once)",
      code: curl("POST", `${agents}/${AGENT_ID_PLACEHOLDER}/connect`, {
        webhookUrl: "https://agent.example.com/hooks/agent",
        webhookToken: WEBHOOK_TOKEN_PLACEHOLDER,
      }),
    },
    list: { label: "List your listings", code: curl("GET", agents) },
    // USDC per answer, at least 0.001; null stops selling single answers.
    sellPerMessage: {
      label: "Also sell single answers, at 0.01 USDC each",
      code: curl("PATCH", `${agents}/${AGENT_ID_PLACEHOLDER}`, { pricePerMessage: 0.01 }),
    },
  };
}
