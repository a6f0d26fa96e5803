import { randomInt } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { makeAgent } from "@/test/fixtures";
import { isolateDatabase } from "@/test/private-database";
import { makeRenterAccount, rentalOf } from "@/test/renter-fixtures";

const { secret } = vi.hoisted(() => {
  const secret = `cron-${Math.random().toString(36).slice(2)}-secret-for-tests`;
  process.env.CRON_SECRET = secret; // read when lib/env loads, below
  return { secret };
});

const { GET, POST, PUT } = await import("@/app/api/cron/remind-rentals/route");

// The run claims every due rental of its database: this file's only.
isolateDatabase("remind_rentals_route");

const call = (method: "GET" | "POST", authorization?: string) =>
  (method === "GET" ? GET : POST)(
    new Request("http://localhost/api/cron/remind-rentals", { method, headers: authorization ? { authorization } : {} }),
  );

/** An hour rental ending in 5 minutes (inside its 10-minute lead), its renter without an address, a Telegram chat bound. */
async function endingSoon() {
  const agent = await makeAgent();
  const renter = await makeRenterAccount({ email: false });
  const rental = await rentalOf(agent, renter, { durationType: "hour" });
  await db.rental.update({
    where: { id: rental.id },
    data: { startsAt: new Date(Date.now() - 55 * 60_000), endsAt: new Date(Date.now() + 5 * 60_000) },
  });
  const chatUser = String(randomInt(1, 2 ** 40));
  await db.chatBinding.create({
    data: {
      platform: "Telegram",
      chatUser,
      chatId: chatUser,
      chatLabel: "@renter on Telegram",
      rentalId: rental.id,
      openUser: `Telegram:${chatUser}`,
      openRentalId: rental.id,
    },
  });
  return rental;
}

describe("/api/cron/remind-rentals", () => {
  it("401 without the secret or with a wrong one, reminding nobody", async () => {
    const rental = await endingSoon();
    for (const res of [await call("GET"), await call("POST", "Bearer wrong-secret-but-long-enough")]) {
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: expect.any(String) });
    }
    expect((await db.rental.findUniqueOrThrow({ where: { id: rental.id } })).remindedEndsAt).toBeNull();
    expect((await PUT()).status).toBe(405);
  });

  it("200 with the run's summary on GET (Vercel Cron) and POST; a second run reminds nobody again", async () => {
    const res = await call("GET", `Bearer ${secret}`);
    expect(res.status).toBe(200);
    // The rental of the test above, still due: its chat is told, its renter has no address.
    expect(await res.json()).toEqual({ reminded: 1, emails: 0, notices: 1 });
    expect(await (await call("POST", `Bearer ${secret}`)).json()).toEqual({ reminded: 0, emails: 0, notices: 0 });
  });
});
