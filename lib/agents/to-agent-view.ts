import { microToUsdc } from "@/lib/money/usdc";

type AgentRow = {
  id: string;
  name: string;
  description: string;
  category: string;
  skills: string[];
  channels: string[];
  pricePerHour: bigint | null;
  pricePerDay: bigint | null;
  pricePerMonth: bigint | null;
  status: string;
  webhookUrlCipher: string | null;
  createdAt: Date;
};

const price = (micro: bigint | null) => (micro === null ? null : microToUsdc(micro));

// What an owner sees of a listing: prices in USDC, whether a webhook is connected, never the
// webhook URL or token.
export function toAgentView(agent: AgentRow) {
  return {
    id: agent.id,
    name: agent.name,
    description: agent.description,
    category: agent.category,
    skills: agent.skills,
    channels: agent.channels,
    pricePerHour: price(agent.pricePerHour),
    pricePerDay: price(agent.pricePerDay),
    pricePerMonth: price(agent.pricePerMonth),
    status: agent.status,
    webhookConnected: agent.webhookUrlCipher !== null,
    createdAt: agent.createdAt.toISOString(),
  };
}
