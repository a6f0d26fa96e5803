// What `npm run dev` prints once the app is up: where it runs, how to sign in as the demo owner
// (e-mail, through the outbox), as the demo renter and as the arbiter (wallet keys), the owner's API key (new
// on every start, the previous one revoked), the owner's payout-wallet key (accepting a dispute sends
// from it), the echo agent's webhook URL and token (for a listing of one's own), the demo rental's
// code, and commands to paste.
import type { LocalChain } from "./deploy-local-chain";

export type DemoBannerInput = {
  base: string;
  demo: { email: string; apiKey: string; agentId: string; code: string };
  /** The demo agent's webhook: the local echo agent. */
  echo: { url: string; token: string };
  /** The local anvil chain, or undefined when the chain settings are the developer's own. */
  chain?: Pick<
    LocalChain,
    "rpcUrl" | "chainId" | "escrow" | "usdc" | "renter" | "renterKey" | "arbiter" | "arbiterKey" | "owner" | "ownerKey"
  >;
  chainDir: string;
  settings: { rpcUrl?: string; chainId?: string; escrow?: string; usdc?: string };
};

function chainLines({ chain, chainDir, settings }: DemoBannerInput): string {
  if (!chain) {
    return ` Chain             ${settings.rpcUrl} (chain id ${settings.chainId || "?"}, from your settings)
 Escrow            ${settings.escrow || "(ESCROW_ADDRESS not set)"}
 USDC              ${settings.usdc || "(USDC_ADDRESS not set)"}`;
  }
  return ` Chain             ${chain.rpcUrl} (anvil, chain id ${chain.chainId}; state in ${chainDir})
 Escrow            ${chain.escrow}
 Test USDC         ${chain.usdc}`;
}

function renterLines({ base, chain }: DemoBannerInput): string {
  if (!chain) return " Demo renter       none: the demo rental is an unpaid development rental on your chain";
  return ` Demo renter       ${chain.renter} (paid the demo rental; holds test USDC)
   Sign in:        add this key to a browser wallet (anvil's public test key, never for real money),
                   ${chain.renterKey}
                   add the network ${chain.rpcUrl} (chain id ${chain.chainId}),
                   then "Sign in with wallet" at ${base}/sign-in
 Arbiter           ${chain.arbiter} (decides disputes at ${base}/dashboard/disputes)
   Sign in:        the same way, with this key: ${chain.arbiterKey}`;
}

// Without the local chain the payout wallet is the developer's own business.
function payoutLines({ base, chain }: DemoBannerInput): string {
  if (!chain) return "";
  return `
 Payout wallet     ${chain.owner} (the demo owner's; the escrow pays out to it)
   In a wallet:    accepting a dispute (${base}/dashboard/agents) sends from it: add this key
                   to the browser wallet as for the renter, ${chain.ownerKey}`;
}

export function demoBanner(input: DemoBannerInput): string {
  const { base, demo, echo } = input;
  return `
────────────────────────────────────────────────────────────────────────
 Agent Rental Service is running at ${base}

 Demo owner        ${demo.email}
   Sign in:        ${base}/sign-in → "E-mail me a sign-in link" with that address,
                   then open the link in the outbox: ${base}/dev/outbox
 Owner API key     ${demo.apiKey}
                   new on every start: the previous demo key was revoked${payoutLines(input)}
 Demo agent        Echo Agent (${demo.agentId})
 Echo agent        ${echo.url} (the demo agent's webhook; it echoes every message)
   Token:          ${echo.token}
                   point a listing of yours at it with this URL and token; both are new on
                   every start (the demo agent is moved along, a listing of yours is not)
 Demo rental code  ${demo.code}
 Chat bots         ${base}/dev/channels (Telegram, Discord, Slack, Teams and Google Chat against a local mock)

${renterLines(input)}

${chainLines(input)}

 Try it:
   curl -s ${base}/api/v1/status -H "X-API-Key: ${demo.code}"

   curl -s ${base}/api/v1/chat -H "X-API-Key: ${demo.code}" \\
     -H "Content-Type: application/json" -d '{"message":"Hello, agent!"}'
────────────────────────────────────────────────────────────────────────
DEMO_RENTAL_CODE=${demo.code}
`;
}
