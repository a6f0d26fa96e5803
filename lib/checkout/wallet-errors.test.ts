import { describe, expect, it } from "vitest";
import { describeWalletError } from "@/lib/checkout/wallet-errors";

describe("wallet errors in words", () => {
  it("recognises a rejection anywhere in the cause chain", () => {
    const error = {
      name: "ContractFunctionExecutionError",
      shortMessage: "failed",
      cause: { name: "UserRejectedRequestError", code: 4001, message: "User rejected the request." },
    };
    expect(describeWalletError(error)).toEqual({
      message: "You declined the request in your wallet. Nothing was sent.",
      rejected: true,
    });
  });

  it("names the escrow's revert reasons", () => {
    const error = {
      name: "ContractFunctionExecutionError",
      shortMessage: "reverted",
      cause: { name: "ContractFunctionRevertedError", data: { errorName: "QuoteExpired" } },
    };
    expect(describeWalletError(error).message).toMatch(/quote expired/);
    expect(describeWalletError(new Error('execution reverted: custom error "EnforcedPause()"')).message).toMatch(/paused/);
  });

  it("says when there is no wallet or no gas", () => {
    expect(describeWalletError({ name: "ProviderNotFoundError", message: "Provider not found." }).message).toMatch(/No wallet was found/);
    expect(describeWalletError(new Error("insufficient funds for gas * price + value")).message).toMatch(/transaction fee/);
    expect(describeWalletError(new Error("Failed to fetch dynamically imported module: /_next/static/chunks/x.js")).message).toMatch(
      /could not be loaded/,
    );
  });

  it("falls back to the first line of the message", () => {
    expect(describeWalletError(new Error("Something odd\nwith details"))).toEqual({
      message: "Something odd",
      rejected: false,
    });
  });
});
