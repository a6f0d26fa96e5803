// The browser checkout's steps (runCheckout) with wagmi against anvil, the real escrow and the
// real checkout routes: a key-backed EIP-1193 wallet stands in for the browser wallet.
import { erc20Abi, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConfig, http } from "wagmi";
import { connect } from "wagmi/actions";
import { injected } from "wagmi/connectors";
import { POST as confirmPost } from "@/app/api/checkout/confirm/route";
import { POST as quotePost } from "@/app/api/checkout/quote/route";
import type { PublicChainSettings } from "@/lib/chain/public-chain-settings";
import { CheckoutApiError, type ConfirmResponse, type QuoteResponse } from "@/lib/checkout/checkout-api";
import { type CheckoutDeps, type FlowData, runCheckout } from "@/lib/checkout/run-checkout";
import { initialSteps, type StepAction, type StepsState, stepsReducer } from "@/lib/checkout/steps";
import { db } from "@/lib/db";
import { formatDateTime } from "@/lib/format/date-time";
import { checkoutRequest, makePayableAgent, newRenter, type Payments, startPayments, USDC } from "@/test/chain/payments-harness";
import { startWebhook, uniqueIp } from "@/test/fixtures";
import { keyWalletProvider } from "@/test/key-wallet-provider";

let p: Payments;
beforeAll(async () => {
  // wagmi's injected connector looks for a browser window; the wallet comes from target below.
  Object.assign(globalThis, { window: { addEventListener() {}, removeEventListener() {} } });
  p = await startPayments();
});
afterAll(() => p?.stop());

async function api<T>(res: Response): Promise<T> {
  const body = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new CheckoutApiError(res.status, body.error ?? String(res.status));
  return body;
}

async function setup(options: { usdc?: bigint; rejectNext?: () => boolean; receiptTimeoutMs?: number; webhook?: string } = {}) {
  const renter = await newRenter(p, { usdc: options.usdc });
  const { agent } = await makePayableAgent({ webhook: options.webhook });
  const chain: PublicChainSettings = {
    chainId: p.publicClient.chain.id,
    chainName: "anvil",
    rpcUrl: p.rpcUrl,
    usdc: p.e.token,
    escrow: p.e.escrow,
    confirmations: 1,
    walletConnectProjectId: null,
  };
  const wallet = keyWalletProvider(renter.key, p.publicClient.chain, p.rpcUrl, { rejectNext: options.rejectNext });
  const config = createConfig({
    chains: [p.publicClient.chain],
    connectors: [injected({ target: () => ({ id: "key", name: "Key wallet", provider: () => wallet.provider as never }) })],
    transports: { [p.publicClient.chain.id]: http(p.rpcUrl) },
    multiInjectedProviderDiscovery: false,
  });
  await connect(config, { connector: config.connectors[0] });
  const ip = uniqueIp();
  const deps: CheckoutDeps = {
    config,
    chain,
    requestQuote: async (input) => api<QuoteResponse>(await quotePost(checkoutRequest("quote", input, ip))),
    confirmPayment: async (txHash, claimSecret) =>
      api<ConfirmResponse>(await confirmPost(checkoutRequest("confirm", { txHash, claimSecret }, ip))),
    sleep: () => new Promise((r) => setTimeout(r, 200)),
    receiptTimeoutMs: options.receiptTimeoutMs,
  };
  let state: StepsState = initialSteps();
  const log: StepAction[] = [];
  const hooks = {
    dispatch: (a: StepAction) => {
      log.push(a);
      state = stepsReducer(state, a);
    },
    live: () => true,
  };
  return { renter, agent, chain, wallet, deps, hooks, log, state: () => state };
}

const balanceOf = (address: Hex) =>
  p.publicClient.readContract({ address: p.e.token, abi: erc20Abi, functionName: "balanceOf", args: [address] });

describe("browser checkout steps (wagmi + anvil)", () => {
  it("pays with one permit signature and one transaction, and activates the rental", async () => {
    const t = await setup();
    const before = await balanceOf(t.renter.address);
    const data: FlowData = {};
    const outcome = await runCheckout(
      t.deps,
      data,
      {
        agentId: t.agent.id,
        agentName: t.agent.name,
        duration: "hour",
        channel: "API",
        renter: t.renter.address,
        total: 3n * USDC,
        from: "quote",
      },
      t.hooks,
    );
    expect(outcome.kind).toBe("done");
    if (outcome.kind !== "done") return;
    expect(t.state().plan).toBe("permit");
    expect(Object.values(t.state().steps).filter((s) => s.status === "confirmed")).toHaveLength(4);
    expect(t.wallet.prompts).toEqual(["eth_signTypedData_v4", "eth_sendTransaction"]);
    expect(outcome.result.status).toBe("active");
    expect(outcome.result.code).toHaveLength(8);
    expect(before - (await balanceOf(t.renter.address))).toBe(3n * USDC);
    const rental = await db.rental.findUniqueOrThrow({ where: { id: outcome.result.id } });
    expect(rental.status).toBe("active");
    // In the page's words: what to do in the wallet, and when it was paid by the chain's clock.
    expect(t.log).toContainEqual({ type: "wallet", step: "permit", detail: "Approve the payment of 3.00 USDC in your wallet" });
    const receipt = await p.publicClient.getTransactionReceipt({ hash: data.payHash! });
    const block = await p.publicClient.getBlock({ blockNumber: receipt.blockNumber });
    expect(t.state().steps.pay.detail).toBe(`Paid at ${formatDateTime(new Date(Number(block.timestamp) * 1000))}`);
    // The quote began with the live check of the agent: said while it ran, then its outcome.
    expect(t.log[t.log.findIndex((a) => a.type === "pending" && a.step === "quote")]).toEqual({
      type: "pending",
      step: "quote",
      detail: `Checking that ${t.agent.name} is answering…`,
    });
    const deadline = formatDateTime(new Date(Number(data.quote!.quote.deadline) * 1000));
    expect(t.state().steps.quote.detail).toBe(`${t.agent.name} answered in ${data.quote!.probe.latency_ms} ms. Valid until ${deadline}`);
  });

  it("stops at the quote, in the service's words, when the agent's webhook does not answer: no wallet prompt", async () => {
    const failing = await startWebhook((_req, res) => res.writeHead(500).end("down"));
    try {
      const t = await setup({ webhook: failing.url });
      const outcome = await runCheckout(
        t.deps,
        {},
        {
          agentId: t.agent.id,
          agentName: t.agent.name,
          duration: "hour",
          channel: "API",
          renter: t.renter.address,
          total: 3n * USDC,
          from: "quote",
        },
        t.hooks,
      );
      expect(outcome).toEqual({ kind: "failed", step: "quote" });
      expect(t.state().steps.quote.error).toBe(
        `"${t.agent.name}" is not answering right now. Nothing was charged: try again later, or pick another agent.`,
      );
      expect(t.wallet.prompts).toEqual([]);
    } finally {
      await failing.close();
    }
  });

  it("pays with approve then createRental when the token has no permit", async () => {
    const t = await setup();
    const data: FlowData = { permitDomain: null }; // as for a token without EIP-2612
    const outcome = await runCheckout(
      t.deps,
      data,
      {
        agentId: t.agent.id,
        agentName: t.agent.name,
        duration: "day",
        channel: "Telegram",
        renter: t.renter.address,
        total: 11n * USDC,
        from: "quote",
      },
      t.hooks,
    );
    expect(outcome.kind).toBe("done");
    expect(t.state().plan).toBe("approve");
    expect(t.wallet.prompts).toEqual(["eth_sendTransaction", "eth_sendTransaction"]);
  });

  it("says a balance too low before any wallet prompt", async () => {
    const t = await setup({ usdc: 2n * USDC });
    const outcome = await runCheckout(
      t.deps,
      {},
      {
        agentId: t.agent.id,
        agentName: t.agent.name,
        duration: "hour",
        channel: "API",
        renter: t.renter.address,
        total: 3n * USDC,
        from: "quote",
      },
      t.hooks,
    );
    expect(outcome).toEqual({
      kind: "refused",
      notice: "Your wallet holds 2.00 USDC but this rental costs 3.00 USDC: add at least 1.00 USDC to this wallet, or connect another one.",
    });
    expect(t.wallet.prompts).toEqual([]);
    expect(t.log).toEqual([]);
  });

  it("fails a rejected signature in words, and Retry resumes from that step", async () => {
    let rejections = 1;
    const t = await setup({ rejectNext: () => rejections-- > 0 });
    const data: FlowData = {};
    const input = {
      agentId: t.agent.id,
      agentName: t.agent.name,
      duration: "hour" as const,
      channel: "API" as const,
      renter: t.renter.address,
      total: 3n * USDC,
    };
    const first = await runCheckout(t.deps, data, { ...input, from: "quote" }, t.hooks);
    expect(first).toEqual({ kind: "failed", step: "permit" });
    expect(t.state().steps.permit).toMatchObject({
      status: "failed",
      rejected: true,
      error: "You declined the request in your wallet. Nothing was sent.",
    });
    const quoteId = data.quote!.rentalId;
    const second = await runCheckout(t.deps, data, { ...input, from: "permit" }, t.hooks);
    expect(second.kind).toBe("done");
    expect(data.quote!.rentalId).toBe(quoteId); // the same quote, not a new one
  });

  it("says when the total changed since the page was rendered", async () => {
    const t = await setup();
    const outcome = await runCheckout(
      t.deps,
      {},
      {
        agentId: t.agent.id,
        agentName: t.agent.name,
        duration: "hour",
        channel: "API",
        renter: t.renter.address,
        total: 2n * USDC,
        from: "quote",
      },
      t.hooks,
    );
    expect(outcome).toEqual({ kind: "failed", step: "quote" });
    expect(t.state().steps.quote.error).toMatch(/price is now 3\.00 USDC/);
    expect(t.wallet.prompts).toEqual([]);
  });

  it("after a receipt timeout, Retry waits for the same payment instead of sending it again", async () => {
    const t = await setup({ receiptTimeoutMs: 1_500 });
    const data: FlowData = {};
    const input = {
      agentId: t.agent.id,
      agentName: t.agent.name,
      duration: "hour" as const,
      channel: "API" as const,
      renter: t.renter.address,
      total: 3n * USDC,
    };
    await p.testClient.setAutomine(false);
    try {
      const first = await runCheckout(t.deps, data, { ...input, from: "quote" }, t.hooks);
      expect(first).toEqual({ kind: "failed", step: "pay" });
      expect(t.state().steps.pay.error).toMatch(/not mined yet/);
      expect(data.payHash).toBeDefined();
    } finally {
      await p.testClient.setAutomine(true);
    }
    await p.testClient.mine({ blocks: 1 });
    const second = await runCheckout(t.deps, data, { ...input, from: "pay" }, t.hooks);
    expect(second.kind).toBe("done");
    expect(t.wallet.prompts).toEqual(["eth_signTypedData_v4", "eth_sendTransaction"]); // sent once
  });
});
