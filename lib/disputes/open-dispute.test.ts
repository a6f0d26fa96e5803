// The dispute stepper's wallet logic against a real escrow on anvil, with wagmi's mock connector
// standing in for the browser wallet (it forwards transactions to anvil's unlocked accounts).
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mock } from "wagmi";
import type { EscrowChain } from "@/lib/chain/escrow-chain";
import { createEscrowWalletConfig } from "@/lib/chain/escrow-wallet";
import { connectForDispute, describeDisputeError, sendDispute } from "@/lib/disputes/open-dispute";
import { newRentalKeys } from "@/lib/rentals/new-rental-keys";
import { type Chain, startChain } from "@/test/chain/anvil";
import { deployEscrow, type Escrow, other, renter, Status } from "@/test/chain/escrow";

let chain: Chain & { stop: () => Promise<void> };
let escrow: Escrow;
let settings: EscrowChain;

beforeAll(async () => {
  chain = await startChain();
  escrow = await deployEscrow(chain, "TestUSDC");
  const rpcUrl = chain.publicClient.transport.url as string;
  settings = {
    chainId: chain.publicClient.chain.id,
    chainName: "Local chain (anvil)",
    rpcUrl,
    escrow: escrow.escrow,
    explorerUrl: null,
  };
});

afterAll(async () => {
  await chain?.stop();
});

/** A rental paid on chain by `renter`, one hour long, under a random escrow id as the service draws them. */
async function paidRental() {
  const q = await escrow.quote({ rentalId: newRentalKeys().escrowId });
  await escrow.create(q);
  const { endsAt } = await escrow.rental(q.rentalId);
  return { escrowId: q.rentalId, endsAt: new Date(endsAt * 1000).toISOString() };
}

function wallet(account: Address) {
  return createEscrowWalletConfig(settings, { connector: mock({ accounts: [account] }) })!;
}

describe("opening a dispute from the browser wallet", () => {
  it("connects the paying account and opens the dispute on chain", async () => {
    const rental = await paidRental();
    const config = wallet(renter.address);
    const steps: string[] = [];
    const account = await connectForDispute(config, settings, renter.address.toLowerCase(), (s) => steps.push(s));
    expect(account.toLowerCase()).toBe(renter.address.toLowerCase());
    const outcome = await sendDispute(config, settings, { escrowId: rental.escrowId, endsAt: rental.endsAt, account }, (s) =>
      steps.push(s.kind),
    );
    expect(outcome).toMatchObject({ ok: true, hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(steps).toEqual(["connecting", "checking", "wallet", "pending"]);
    expect((await escrow.rental(rental.escrowId)).status).toBe(Status.Disputed);

    // A second attempt is refused by the escrow's simulation, in words, before the wallet is asked.
    const again: string[] = [];
    const error = await sendDispute(config, settings, { escrowId: rental.escrowId, endsAt: rental.endsAt, account }, (s) =>
      again.push(s.kind),
    ).catch((e) => e);
    expect(again).toEqual(["checking"]);
    expect(describeDisputeError(error, settings, rental.endsAt)).toBe("The escrow refused: this rental is already disputed.");
  });

  it("refuses another account before sending anything, and the escrow refuses it too", async () => {
    const rental = await paidRental();
    const config = wallet(other.address);
    const error = await connectForDispute(config, settings, renter.address.toLowerCase()).catch((e) => e);
    expect(describeDisputeError(error, settings, rental.endsAt)).toMatch(/this rental was paid from 0x/);

    // Without the paying address to compare, the simulation reports the escrow's SenderNotRenter.
    const account = await connectForDispute(config, settings, null);
    const refused = await sendDispute(config, settings, {
      escrowId: rental.escrowId,
      endsAt: rental.endsAt,
      account,
    }).catch((e) => e);
    expect(describeDisputeError(refused, settings, rental.endsAt)).toMatch(/Only the wallet that paid/);
    expect((await escrow.rental(rental.escrowId)).status).toBe(Status.Active);
  });

  it("explains a closed window: by the clock before asking, and by the escrow's RentalEnded", async () => {
    const rental = await paidRental();
    const config = wallet(renter.address);
    const account = await connectForDispute(config, settings, renter.address);
    const late = () => new Date(rental.endsAt).getTime() + 1000;
    const byClock = await sendDispute(
      config,
      settings,
      { escrowId: rental.escrowId, endsAt: rental.endsAt, account },
      () => {},
      late,
    ).catch((e) => e);
    expect(describeDisputeError(byClock, settings, rental.endsAt)).toMatch(/^The dispute window closed at /);

    await chain.increaseTime(3601);
    const byChain = await sendDispute(
      config,
      settings,
      { escrowId: rental.escrowId, endsAt: rental.endsAt, account },
      () => {},
      () => 0,
    ).catch((e) => e);
    expect(describeDisputeError(byChain, settings, rental.endsAt)).toMatch(/^The dispute window closed at /);
    expect((await escrow.rental(rental.escrowId)).status).toBe(Status.Active);
  });

  it("explains an id the escrow never saw and a wallet that refused", async () => {
    const config = wallet(renter.address);
    const account = await connectForDispute(config, settings, null);
    const unknown = await sendDispute(config, settings, {
      escrowId: newRentalKeys().escrowId,
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
      account,
    }).catch((e) => e);
    expect(describeDisputeError(unknown, settings, new Date().toISOString())).toMatch(/unknown to the escrow/);
    expect(describeDisputeError({ code: 4001, message: "User rejected" }, settings, new Date().toISOString())).toMatch(
      /cancelled the request/,
    );
  });
});
