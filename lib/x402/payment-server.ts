import "server-only";
import type { FacilitatorClient } from "@x402/core/server";
import { x402ResourceServer } from "@x402/core/server";
import type { Network, PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { ExactEvmScheme as ExactEvmVerifier } from "@x402/evm/exact/facilitator";
import { ExactEvmScheme as ExactEvmServerScheme } from "@x402/evm/exact/server";
import type { Address } from "viem";
import { chainClients } from "@/lib/chain/chain-clients";
import { usdcPermitDomain } from "@/lib/chain/usdc-permit-domain";

/**
 * How long a payment authorization must stay valid, from when the client signs it: the owner's
 * webhook (at most WEBHOOK_TIMEOUT_MS, 2 minutes at most) and the settlement must both fit.
 */
export const PAYMENT_TIMEOUT_SECONDS = 300;

export type PaymentServer = {
  server: x402ResourceServer;
  network: Network;
  /** USDC, and its EIP-712 domain's name and version (what the client signs with). */
  asset: Address;
  extra: { name: string; version: string };
  /** The escrow: every authorization pays it, and it credits the owner and the treasury. */
  payTo: Address;
};

const cache = globalThis as unknown as { x402PaymentServer?: { key: string; server: Promise<PaymentServer> } };

/**
 * The official x402 resource server (`@x402/core`) for answers sold per message, one per process
 * and chain configuration: it builds the `exact` requirements, the 402 and matches a payment to
 * them; payments are verified by the official EIP-3009 verifier of `@x402/evm` (signature, payee,
 * amount, validity window and a simulation of the transfer on the chain). It never settles: the
 * escrow does (lib/chain/settle-message-payment.ts), only once the owner's webhook has answered.
 */
export function paymentServer(): Promise<PaymentServer> {
  const { config } = chainClients();
  const key = `${config.chainId}:${config.rpcUrl}:${config.usdc}:${config.escrow}`;
  if (cache.x402PaymentServer?.key !== key) {
    const server = build();
    // A failure (the node down) is not kept: the next request builds it again.
    server.catch(() => {
      if (cache.x402PaymentServer?.server === server) cache.x402PaymentServer = undefined;
    });
    cache.x402PaymentServer = { key, server };
  }
  return cache.x402PaymentServer.server;
}

async function build(): Promise<PaymentServer> {
  const { publicClient, operator, config } = chainClients();
  const network: Network = `eip155:${config.chainId}`;
  const refuse = () => Promise.reject(new Error("answers are settled through the escrow, never by the verifier"));
  const verifier = new ExactEvmVerifier(
    toFacilitatorEvmSigner({
      address: operator.address,
      getCode: (args) => publicClient.getCode(args),
      readContract: (args) => publicClient.readContract(args as Parameters<typeof publicClient.readContract>[0]),
      verifyTypedData: (args) => publicClient.verifyTypedData(args as Parameters<typeof publicClient.verifyTypedData>[0]),
      waitForTransactionReceipt: (args) => publicClient.waitForTransactionReceipt(args),
      writeContract: refuse,
      sendTransaction: refuse,
    }),
  );
  const facilitator: FacilitatorClient = {
    verify: (payload: PaymentPayload, requirements: PaymentRequirements) => verifier.verify(payload, requirements),
    settle: refuse,
    getSupported: async () => ({
      kinds: [{ x402Version: 2, scheme: "exact", network }],
      extensions: [],
      signers: { [network]: [operator.address] },
    }),
  };
  const server = new x402ResourceServer(facilitator).register(network, new ExactEvmServerScheme());
  const [domain] = await Promise.all([usdcPermitDomain(publicClient, config.usdc, config.chainId), server.initialize()]);
  return { server, network, asset: config.usdc, extra: { name: domain.name, version: domain.version }, payTo: config.escrow };
}

/** The one way to pay `amountMicro` (price + fee) for an answer: exact, USDC, to the escrow. */
export function answerRequirements(ps: PaymentServer, amountMicro: bigint): Promise<PaymentRequirements[]> {
  return ps.server.buildPaymentRequirements({
    scheme: "exact",
    network: ps.network,
    payTo: ps.payTo,
    maxTimeoutSeconds: PAYMENT_TIMEOUT_SECONDS,
    price: { asset: ps.asset, amount: amountMicro.toString(), extra: ps.extra },
  });
}
