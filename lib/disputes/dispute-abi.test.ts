// The renter dashboard's data rules on the real database: whose rentals an account sees, the
// rating rules (and that ratings reach the marketplace figures), and notifications.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { loadAgentViews, loadListingStats } from "@/lib/agents/load-agent-views";
import { searchMarketplace } from "@/lib/agents/search-marketplace";
import { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";
import { disputeAbi } from "@/lib/disputes/dispute-abi";
import { db } from "@/lib/db";
import { listNotifications } from "@/lib/notifications/list-notifications";
import { markAllNotificationsRead, markNotificationRead } from "@/lib/notifications/mark-notifications-read";
import { completeRentals } from "@/lib/rentals/complete-rentals";
import { findRenterRental, listRenterRentals, type RenterAccount } from "@/lib/rentals/list-renter-rentals";
import { rateRental } from "@/lib/rentals/rate-rental";
import { parseMarketplaceQuery } from "@/lib/schemas/marketplace-query";
import { makeAgent, makeRental } from "@/test/fixtures";

type Agent = Awaited<ReturnType<typeof makeAgent>>;

const hex = (bytes: number) => randomBytes(bytes).toString("hex");
const newAddress = () => `0x${hex(20)}`;

async function makeAccount(options: { wallet?: boolean; email?: boolean } = {}): Promise<RenterAccount & { email: string | null }> {
  return db.account.create({
    data: {
      walletAddress: options.wallet ? newAddress() : null,
      email: options.email ? `renter-${hex(6)}@example.com` : null,
    },
    select: { id: true, walletAddress: true, email: true },
  });
}

/** A rental of `agent` that belongs to `account` (renter_id), created `agoSeconds` before now. */
async function rentalOf(agent: Agent, account: RenterAccount, overrides: Parameters<typeof makeRental>[1] = {}) {
  const rental = await makeRental(agent.id, overrides);
  return db.rental.update({ where: { id: rental.id }, data: { renterId: account.id } });
}

let agent: Agent;
let otherAgent: Agent;

beforeAll(async () => {
  agent = await makeAgent({ listing: { name: `Renter Dash ${hex(4)}` } });
  otherAgent = await makeAgent({ listing: { name: `Other Dash ${hex(4)}` } });
});

describe("dispute ABI", () => {
  it("matches the escrow's generated ABI (openDispute and the errors the page explains)", () => {
    const signature = (item: { type: string; name?: string; inputs?: readonly { type: string }[] }) =>
      `${item.type} ${item.name}(${(item.inputs ?? []).map((i) => i.type).join(",")})`;
    const generated = new Set((escrowAbi as readonly { type: string; name?: string; inputs?: readonly { type: string }[] }[]).map(signature));
    for (const item of disputeAbi) expect(generated, signature(item)).toContain(signature(item));
  });
});
