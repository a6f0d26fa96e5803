import { privateKeyToAccount } from "viem/accounts";
import { recoverTypedDataAddress } from "viem";
import { describe, expect, it } from "vitest";
import { activationSteps, chatCurl } from "@/lib/checkout/activation";
import { quoteArgs, quoteUsable } from "@/lib/checkout/checkout-api";
import { permitTypes, splitSignature } from "@/lib/checkout/permit";
import { checkoutTotals, parseMicro, shortfall, shortfallMessage } from "@/lib/checkout/price";
import { announcement, failedStep, initialSteps, isDone, isRunning, stepLabel, stepsFor, stepsReducer, waitingForWallet, type StepAction } from "@/lib/checkout/steps";
import { describeWalletError } from "@/lib/checkout/wallet-errors";
import { RENTAL_FEE_MICRO } from "@/lib/money/usdc";

describe("checkout price math", () => {
  it("adds the 1 USDC fee to the price with bigints", () => {
    expect(checkoutTotals("2000000")).toEqual({ price: 2_000_000n, fee: 1_000_000n, total: 3_000_000n });
    expect(checkoutTotals("5").total).toBe(1_000_005n);
    expect(checkoutTotals(RENTAL_FEE_MICRO).fee).toBe(RENTAL_FEE_MICRO);
    // Beyond Number's exact range: still exact.
    expect(checkoutTotals("123456789012345678901").total).toBe(123456789012346678901n);
  });

  it("rejects what is not a micro amount", () => {
    for (const bad of ["", "-1", "1.5", "1e6", " 1", "0x10"]) expect(() => parseMicro(bad)).toThrow();
  });

  it("says the shortfall in words, and nothing when the balance is enough", () => {
    expect(shortfall(3_000_000n, 3_000_000n)).toBeNull();
    expect(shortfall(1_500_000n, 3_000_000n)).toBe(1_500_000n);
    expect(shortfallMessage(10_000_000n, 3_000_000n)).toBeNull();
    expect(shortfallMessage(1_500_000n, 3_000_000n)).toBe(
      "Your wallet holds 1.50 USDC but this rental costs 3.00 USDC: add at least 1.50 USDC to this wallet, or connect another one.",
    );
  });
});

describe("checkout stepper", () => {
  const run = (actions: StepAction[], plan: "permit" | "approve" = "permit") => actions.reduce(stepsReducer, initialSteps(plan));

  it("has the permit and the approve plans", () => {
    expect(stepsFor("permit")).toEqual(["quote", "permit", "pay", "confirm"]);
    expect(stepsFor("approve")).toEqual(["quote", "approve", "pay", "confirm"]);
    expect(stepLabel("pay", "permit")).toBe("Pay (createRentalWithPermit)");
    expect(stepLabel("pay", "approve")).toBe("Pay (createRental)");
    expect(stepLabel("approve", "approve")).toBe("Approve USDC");
  });

  it("moves a step through wallet → pending → confirmed", () => {
    let s = run([{ type: "pending", step: "quote" }]);
    expect(isRunning(s)).toBe(true);
    expect(waitingForWallet(s)).toBe(false);
    s = run([{ type: "confirmed", step: "quote" }, { type: "wallet", step: "permit", detail: "Sign" }]);
    expect(waitingForWallet(s)).toBe(true);
    expect(announcement(s)).toBe("Permit signature: Waiting for your wallet (Sign)");
    s = stepsReducer(s, { type: "confirmed", step: "permit" });
    expect(isRunning(s)).toBe(false);
    expect(s.steps.permit.status).toBe("confirmed");
  });

  it("keeps a failure's reason and restarts from the failed step", () => {
    let s = run([
      { type: "confirmed", step: "quote" },
      { type: "confirmed", step: "permit" },
      { type: "wallet", step: "pay" },
      { type: "failed", step: "pay", error: "You declined the request in your wallet. Nothing was sent.", rejected: true },
    ]);
    expect(failedStep(s)).toBe("pay");
    expect(s.steps.pay).toMatchObject({ status: "failed", rejected: true });
    expect(isRunning(s)).toBe(false);
    expect(announcement(s)).toBe("Pay (createRentalWithPermit) failed: You declined the request in your wallet. Nothing was sent.");
    s = stepsReducer(s, { type: "resetFrom", step: "pay" });
    expect(failedStep(s)).toBeNull();
    expect(s.steps.quote.status).toBe("confirmed");
    expect(s.steps.pay.status).toBe("idle");
    expect(s.steps.confirm.status).toBe("idle");
  });

  it("switches plan and resets", () => {
    let s = run([{ type: "plan", plan: "approve" }, { type: "confirmed", step: "approve" }, { type: "confirmed", step: "pay" }, { type: "confirmed", step: "confirm" }]);
    expect(s.plan).toBe("approve");
    expect(isDone(s)).toBe(true);
    s = stepsReducer(s, { type: "reset" });
    expect(s.plan).toBe("approve");
    expect(Object.values(s.steps).every((x) => x.status === "idle")).toBe(true);
    expect(announcement(s)).toBe("");
  });
});

describe("activation instructions", () => {
  it("builds a ready curl for the chat API", () => {
    expect(chatCurl("https://rent.example/", "d8ca3b8c")).toBe(
      [
        "curl -X POST 'https://rent.example/api/v1/chat' \\",
        "  -H 'Content-Type: application/json' \\",
        "  -H 'X-API-Key: d8ca3b8c' \\",
        `  -d '{"message":"Hello! What can you do?"}'`,
      ].join("\n"),
    );
    // A quote in the message stays valid shell.
    expect(chatCurl("http://localhost:3000", "abc", "it's")).toContain(`-d '{"message":"it'\\''s"}'`);
  });

  it("tells chat-channel renters the bot's start command, with the bot's link when the service runs it", () => {
    const links = { telegramBot: "agent_rental_bot", discordApplicationId: null, slackInstallUrl: null };
    const steps = activationSteps("Telegram", "d8ca3b8c", "https://rent.example", links);
    expect(steps.map((s) => s.command).filter(Boolean)).toEqual(["/start d8ca3b8c"]);
    expect(steps[0].link).toEqual({ href: "https://t.me/agent_rental_bot?start=d8ca3b8c", label: "Open in Telegram" });
    expect(activationSteps("Discord", "d8ca3b8c", "https://rent.example", links).map((s) => s.command).filter(Boolean)).toEqual(["/start code:d8ca3b8c"]);
    expect(activationSteps("Slack", "d8ca3b8c", "https://rent.example", links).map((s) => s.command).filter(Boolean)).toEqual(["/agent start d8ca3b8c"]);
    const api = activationSteps("API", "d8ca3b8c", "https://rent.example", links);
    expect(api[0].command).toContain("X-API-Key: d8ca3b8c");
    expect(api[1].command).toContain("/api/v1/status");
  });

});

describe("quotes and permits", () => {
  const quote = {
    rentalId: `0x${"ab".repeat(32)}`,
    renter: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
    owner: "0x976EA74026E726554dB657fA54763abd0C3a0aa9",
    price: "1000000",
    fee: "1000000",
    duration: "3600",
    deadline: "1795263462",
  } as const;

  it("turns the API's decimal strings into the ABI's bigints", () => {
    expect(quoteArgs(quote)).toMatchObject({ price: 1_000_000n, fee: 1_000_000n, duration: 3600n, deadline: 1_795_263_462n });
  });

  it("refuses a quote within a minute of its deadline", () => {
    expect(quoteUsable(quote, 1_795_263_462 - 61)).toBe(true);
    expect(quoteUsable(quote, 1_795_263_462 - 60)).toBe(false);
  });

  it("splits a permit signature into v, r, s that recover the owner", async () => {
    const account = privateKeyToAccount("0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba");
    const typed = {
      domain: { name: "USD Coin (test)", version: "1", chainId: 31337, verifyingContract: "0x5FbDB2315678afecb367f032d93F642f64180aa3" as const },
      types: permitTypes,
      primaryType: "Permit" as const,
      message: { owner: account.address, spender: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512" as const, value: 3_000_000n, nonce: 0n, deadline: 1_795_263_462n },
    };
    const signature = await account.signTypedData(typed);
    const { v, r, s } = splitSignature(signature);
    expect([27, 28]).toContain(v);
    expect(signature.startsWith(r)).toBe(true);
    expect(await recoverTypedDataAddress({ ...typed, signature })).toBe(account.address);
  });
});

describe("wallet errors in words", () => {
  it("recognises a rejection anywhere in the cause chain", () => {
    const error = { name: "ContractFunctionExecutionError", shortMessage: "failed", cause: { name: "UserRejectedRequestError", code: 4001, message: "User rejected the request." } };
    expect(describeWalletError(error)).toEqual({ message: "You declined the request in your wallet. Nothing was sent.", rejected: true });
  });

  it("names the escrow's revert reasons", () => {
    const error = { name: "ContractFunctionExecutionError", shortMessage: "reverted", cause: { name: "ContractFunctionRevertedError", data: { errorName: "QuoteExpired" } } };
    expect(describeWalletError(error).message).toMatch(/quote expired/);
    expect(describeWalletError(new Error('execution reverted: custom error "EnforcedPause()"')).message).toMatch(/paused/);
  });

  it("says when there is no wallet or no gas", () => {
    expect(describeWalletError({ name: "ProviderNotFoundError", message: "Provider not found." }).message).toMatch(/No wallet was found/);
    expect(describeWalletError(new Error("insufficient funds for gas * price + value")).message).toMatch(/transaction fee/);
    expect(describeWalletError(new Error("Failed to fetch dynamically imported module: /_next/static/chunks/x.js")).message).toMatch(/could not be loaded/);
  });

  it("falls back to the first line of the message", () => {
    expect(describeWalletError(new Error("Something odd\nwith details"))).toEqual({ message: "Something odd", rejected: false });
  });
});

describe("pending payment memory", async () => {
  const { rememberPayment, pendingPayment, forgetPayment } = await import("@/lib/checkout/pending-payment");
  const memory = () => {
    const map = new Map<string, string>();
    return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k) };
  };
  const hash = `0x${"12".repeat(32)}` as const;

  it("remembers a sent payment for its agent until it is confirmed", () => {
    const store = memory();
    rememberPayment({ agentId: "a", txHash: hash, channel: "API", at: 1_000 }, store);
    expect(pendingPayment("a", 2_000, store)).toMatchObject({ txHash: hash, channel: "API" });
    expect(pendingPayment("b", 2_000, store)).toBeNull();
    expect(pendingPayment("a", 1_000 + 8 * 86_400_000, store)).toBeNull();
    forgetPayment(`0x${"34".repeat(32)}`, store);
    expect(pendingPayment("a", 2_000, store)).not.toBeNull();
    forgetPayment(hash, store);
    expect(pendingPayment("a", 2_000, store)).toBeNull();
  });

  it("ignores garbage", () => {
    const store = memory();
    store.setItem("ars.checkout.pending", "{not json");
    expect(pendingPayment("a", 0, store)).toBeNull();
    expect(pendingPayment("a", 0, null)).toBeNull();
  });
});
