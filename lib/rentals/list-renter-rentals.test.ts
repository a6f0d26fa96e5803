// Whose rentals an account sees on its dashboard, on the real database.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { findRenterRental, listRenterRentals } from "@/lib/rentals/list-renter-rentals";
import { rateRental } from "@/lib/rentals/rate-rental";
import { makeAgent, makeRental } from "@/test/fixtures";
import { makeRenterAccount, rentalOf } from "@/test/renter-fixtures";

type Agent = Awaited<ReturnType<typeof makeAgent>>;

const hex = (bytes: number) => randomBytes(bytes).toString("hex");
const newAddress = () => `0x${hex(20)}`;

let agent: Agent;
let otherAgent: Agent;

beforeAll(async () => {
  agent = await makeAgent({ listing: { name: `Renter Dash ${hex(4)}` } });
  otherAgent = await makeAgent({ listing: { name: `Other Dash ${hex(4)}` } });
});

describe("listRenterRentals", () => {
  it("lists only the account's rentals, newest first, without pending ones", async () => {
    const me = await makeRenterAccount();
    const someoneElse = await makeRenterAccount();
    const older = await rentalOf(agent, me, { startsInSeconds: -7200, endsInSeconds: -3600, status: "completed" });
    const newer = await rentalOf(otherAgent, me, { durationType: "hour" });
    await rentalOf(agent, me, { status: "pending" });
    await rentalOf(agent, someoneElse);
    await makeRental(agent.id); // nobody's

    const rentals = await listRenterRentals(me);
    expect(rentals.map((r) => r.id)).toEqual([newer.id, older.id]);
    expect(rentals[0]).toMatchObject({
      id: newer.id,
      code: newer.id.slice(0, 8),
      agentId: otherAgent.id,
      agentName: otherAgent.name,
      status: "active",
      durationType: "hour",
      endsAt: newer.endsAt,
      rated: false,
      rating: null,
    });
    expect(rentals[1]).toMatchObject({ status: "completed", agentName: agent.name });

    const theirs = await listRenterRentals(someoneElse);
    expect(theirs).toHaveLength(1);
    expect(theirs[0].id).not.toBe(newer.id);
  });

  it("also finds rentals paid from the account's wallet (renter_address), in any letter case", async () => {
    const me = await makeRenterAccount({ wallet: true });
    const paid = await makeRental(agent.id);
    await db.rental.update({ where: { id: paid.id }, data: { renterAddress: me.walletAddress!.toLowerCase() } });
    const stranger = await makeRental(agent.id);
    await db.rental.update({ where: { id: stranger.id }, data: { renterAddress: newAddress() } });

    const rentals = await listRenterRentals({
      id: me.id,
      walletAddress: me.walletAddress!.toUpperCase().replace("0X", "0x"),
    });
    expect(rentals.map((r) => r.id)).toEqual([paid.id]);
    expect(await findRenterRental(me, paid.id)).toMatchObject({ id: paid.id });
    expect(await findRenterRental(me, stranger.id)).toBeNull();
  });

  it("shows the rating once the rental is rated", async () => {
    const me = await makeRenterAccount();
    const rental = await rentalOf(agent, me);
    await rateRental(me, rental.id, { score: 4, comment: "Solid" });
    const [listed] = await listRenterRentals(me);
    expect(listed).toMatchObject({ rated: true, rating: { score: 4, comment: "Solid" } });
  });

  it("findRenterRental: someone else's, pending, unknown and malformed ids are null", async () => {
    const me = await makeRenterAccount();
    const other = await makeRenterAccount();
    const theirs = await rentalOf(agent, other);
    const pending = await rentalOf(agent, me, { status: "pending" });
    expect(await findRenterRental(me, theirs.id)).toBeNull();
    expect(await findRenterRental(me, pending.id)).toBeNull();
    expect(await findRenterRental(me, "00000000-0000-4000-8000-000000000000")).toBeNull();
    expect(await findRenterRental(me, "not-a-uuid'; DROP TABLE rentals")).toBeNull();
    const mine = await rentalOf(agent, me);
    expect(await findRenterRental(me, mine.id.toUpperCase())).toMatchObject({ id: mine.id });
  });
});
