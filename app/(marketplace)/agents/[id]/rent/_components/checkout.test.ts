// Server render of the checkout and of its wallet part: the accessible names and test ids the
// browser tests rely on. (The wallet steps themselves: lib/checkout/run-checkout.test.ts.)
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ChannelLinks } from "@/lib/checkout/activation";
import { checkoutTotals } from "@/lib/checkout/price";
import { Checkout } from "./checkout";
import { WalletPayment, type WalletPaymentProps } from "./wallet-payment";

const links: ChannelLinks = {
  telegramBot: "agent_rental_bot",
  discordApplicationId: "100000000000000001",
  slackInstallUrl: null,
  slackAppUrl: null,
  whatsappNumber: null,
  simulated: [],
};

const chain = {
  chainId: 31337,
  chainName: "Local chain (anvil)",
  rpcUrl: "http://127.0.0.1:8545",
  usdc: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  escrow: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
  confirmations: 1,
  walletConnectProjectId: null,
} as const;

const connectButtons = (html: string) => [...html.matchAll(/<button[^>]*>(Connect [^<]*)<\/button>/g)].map(([, label]) => label);
const text = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, " ");

const walletPayment = (changes: Partial<WalletPaymentProps> = {}) =>
  renderToString(
    createElement(WalletPayment, {
      agentId: "0b83e3cb-3cc3-4cd5-984c-92dd2d9a4b33",
      agentName: "Echo Agent",
      duration: "hour",
      channel: "API",
      totals: checkoutTotals("2000000"),
      chain,
      onProgress: () => undefined,
      onPaid: () => undefined,
      onCancel: () => undefined,
      ...changes,
    }),
  );

describe("checkout markup", () => {
  it("shows the chooser and the price table from micro amounts, and where the wallet part loads", () => {
    const html = renderToString(
      createElement(Checkout, {
        agentId: "0b83e3cb-3cc3-4cd5-984c-92dd2d9a4b33",
        agentName: "Echo Agent",
        channels: ["API", "Telegram"],
        prices: { hour: "2000000", month: "50000000" },
        initialDuration: "day", // not priced: falls back to the first priced duration
        chain,
        links,
        signedIn: false,
      }),
    );
    const words = text(html);
    expect(words).toContain("Price (1 hour) 2.00 USDC Service fee + 1.00 USDC Total 3.00 USDC");
    expect(words).not.toContain("1 day");
    expect(html).toContain('data-testid="total-amount"');
    expect(html).toMatch(/<legend>Duration<\/legend>/);
    expect(html).toMatch(/<input type="radio" name="channel" checked="" value="API"\/>/);
    // The wallet part is fetched after the page: its place says so, and no wallet code rendered.
    expect(words).toContain("Wallet Loading the wallet connection…");
    expect(connectButtons(html)).toEqual([]);
  });

  it("the wallet part: the connect buttons and the stepper", () => {
    const html = walletPayment();
    expect(connectButtons(html)).toEqual(["Connect browser wallet", "Connect with Coinbase Wallet"]);
    for (const id of ["step-quote", "step-permit", "step-pay", "step-confirm", "step-announcement"]) {
      expect(html).toContain(`data-testid="${id}"`);
    }
    expect(text(html)).toContain("Connect a wallet to pay 3.00 USDC.");
    // Before Pay, the quote step already says it starts with a check of the agent: the check's
    // words later take that line's place (step-list.tsx), so nothing below it moves.
    expect(html).toMatch(/data-testid="step-quote-detail"[^>]*>First checks that Echo Agent is answering</);
  });

  it("has one button per wallet connector: WalletConnect too when a project id is configured", () => {
    const html = walletPayment({ chain: { ...chain, walletConnectProjectId: "0123456789abcdef0123456789abcdef" } });
    expect(connectButtons(html)).toEqual(["Connect browser wallet", "Connect with Coinbase Wallet", "Connect with WalletConnect"]);
  });
});
