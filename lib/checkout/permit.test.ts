import { recoverTypedDataAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { quoteArgs, quoteUsable } from "@/lib/checkout/checkout-api";
import { permitTypes, splitSignature } from "@/lib/checkout/permit";

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
    expect(quoteArgs(quote)).toMatchObject({
      price: 1_000_000n,
      fee: 1_000_000n,
      duration: 3600n,
      deadline: 1_795_263_462n,
    });
  });

  it("refuses a quote within a minute of its deadline", () => {
    expect(quoteUsable(quote, 1_795_263_462 - 61)).toBe(true);
    expect(quoteUsable(quote, 1_795_263_462 - 60)).toBe(false);
  });

  it("splits a permit signature into v, r, s that recover the owner", async () => {
    const account = privateKeyToAccount("0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba");
    const typed = {
      domain: {
        name: "USD Coin (test)",
        version: "1",
        chainId: 31337,
        verifyingContract: "0x5FbDB2315678afecb367f032d93F642f64180aa3" as const,
      },
      types: permitTypes,
      primaryType: "Permit" as const,
      message: {
        owner: account.address,
        spender: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512" as const,
        value: 3_000_000n,
        nonce: 0n,
        deadline: 1_795_263_462n,
      },
    };
    const signature = await account.signTypedData(typed);
    const { v, r } = splitSignature(signature);
    expect([27, 28]).toContain(v);
    expect(signature.startsWith(r)).toBe(true);
    expect(await recoverTypedDataAddress({ ...typed, signature })).toBe(account.address);
  });
});
