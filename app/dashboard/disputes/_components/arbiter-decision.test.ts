// Server render of the arbiter's decision box: the partial-refund field is prefilled only with an
// amount it accepts (a part of the price), and otherwise says which decision the evidence suggests.
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ArbiterDecision } from "./arbiter-decision";

const chain = { chainId: 31337, chainName: "Anvil", rpcUrl: "http://127.0.0.1:8545", escrow: `0x${"11".repeat(20)}`, explorerUrl: null };

function render(suggested: bigint) {
  const html = renderToString(
    createElement(ArbiterDecision, {
      escrowId: `0x${"ab".repeat(32)}`,
      price: "4000000",
      fee: "1000000",
      suggested: String(suggested),
      wallet: { address: `0x${"22".repeat(20)}`, who: "your arbiter wallet" },
      chain: chain as never,
    }),
  );
  return { value: /<input[^>]*value="([^"]*)"/.exec(html)?.[1] ?? null, text: html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ") };
}

describe("ArbiterDecision", () => {
  it("prefills a suggestion that is part of the price", () => {
    expect(render(200_000n)).toMatchObject({ value: "0.2", text: expect.stringContaining("Prefilled with the suggestion.") });
  });

  it("never prefills an amount its own check refuses: no downtime suggests a release, all of it a full refund", () => {
    expect(render(0n)).toMatchObject({
      value: "",
      text: expect.stringContaining("No downtime was measured, so the evidence suggests releasing to the owner."),
    });
    expect(render(4_000_000n)).toMatchObject({
      value: "",
      text: expect.stringContaining("the evidence suggests a full refund"),
    });
  });
});
