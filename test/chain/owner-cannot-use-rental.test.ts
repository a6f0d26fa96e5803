// The owner of an agent is the one party who would gain by holding a renter's code: it could chat
// as the renter (those calls land in the dispute's evidence) and, after a dispute it won, use a
// rental that is active again. Everything the owner receives names the rental by its reference;
// here every value the owner was ever shown or sent is tried as a rental code, and none opens it.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as agentsGet } from "@/app/api/public/agents/route";
import { GET as statsGet } from "@/app/api/public/stats/route";
import { POST as chatPost } from "@/app/api/v1/chat/route";
import { GET as statusGet } from "@/app/api/v1/status/route";
import { issueApiKey } from "@/lib/accounts/issue-api-key";
import { syncEscrowEvents } from "@/lib/chain/sync-escrow-events";
import { db } from "@/lib/db";
import { listNotifications } from "@/lib/notifications/list-notifications";
import { confirmRentalPayment } from "@/lib/rentals/confirm-rental-payment";
import { quoteRental } from "@/lib/rentals/quote-rental";
import { ownerRequest, renterRequest } from "@/test/api-requests";
import { startWebhook, uniqueIp } from "@/test/fixtures";
import { isolateDatabase } from "@/test/private-database";
import { arbiter, chainDate, escrowAbi, makePayableAgent, newRenter, type Payments, pay, send, startPayments } from "./payments-harness";

// Reads escrow events into the one cursor row: a database of its own.
isolateDatabase("owner_cannot_use_rental");

let p: Payments;
let hook: Awaited<ReturnType<typeof startWebhook>>;

beforeAll(async () => {
  p = await startPayments();
  hook = await startWebhook((req, res) => {
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify(req.headers["x-health-check"] ? "ok" : "Hello from the agent"));
  });
});
afterAll(async () => {
  await hook?.close();
  await p?.stop();
});

const chat = (code: string, message: string) => chatPost(renterRequest("chat", { code, ip: uniqueIp(), body: { message } }));
const status = (code: string) => statusGet(renterRequest("status", { code, ip: uniqueIp() }));

describe("a rental whose dispute the owner won", () => {
  it("is active again, and nothing the owner holds opens it", async () => {
    const renter = await newRenter(p, { email: `renter-${randomUUID()}@example.com` });
    const { agent } = await makePayableAgent({ webhook: hook.url });
    await db.account.update({ where: { id: agent.ownerId }, data: { email: `owner-${randomUUID()}@example.com` } });
    const { apiKey } = await issueApiKey(agent.ownerId);
    const quoted = await quoteRental(
      { agentId: agent.id, durationType: "hour", channel: "API", renter: renter.address },
      await chainDate(p),
    );
    const receipt = await pay(p, renter, quoted);
    expect((await confirmRentalPayment(receipt.transactionHash)).status).toBe("active");
    // The chain's blocks run a little ahead of the wall clock the chat route reads: start the
    // rental's window (the database's view; the chain's is unchanged) a minute ago.
    const rental = await db.rental.update({ where: { id: quoted.rentalId }, data: { startsAt: new Date(Date.now() - 60_000) } });
    const code = rental.id.slice(0, 8);

    // The renter uses the rental, disputes it, and the arbiter rejects the dispute before the end.
    expect((await chat(code, "first message")).status).toBe(200);
    await db.dispute.create({ data: { rentalId: rental.id, reason: "poor_quality", details: "The answers were wrong." } });
    await send(p, renter, p.e.escrow, escrowAbi, "openDispute", [quoted.quote.rentalId]);
    expect(await syncEscrowEvents()).toMatchObject({ disputed: 1 });
    await p.e.send(arbiter.address, "resolveDispute", [quoted.quote.rentalId, 0n]);
    await syncEscrowEvents();
    expect((await db.rental.findUniqueOrThrow({ where: { id: rental.id } })).status).toBe("active");
    expect((await chat(code, "after the dispute")).status).toBe(200);

    // Everything the owner has: every call to the webhook (headers and bodies), its notifications
    // and e-mails, and what the owner API answers about its listings and their stats.
    const notifications = await listNotifications(agent.ownerId);
    const emails = await db.email.findMany({ where: { idempotencyKey: { endsWith: `:${agent.ownerId}` } } });
    const ownerApi = await Promise.all([
      agentsGet(ownerRequest("agents", { key: apiKey })).then((r) => r.text()),
      statsGet(ownerRequest("stats", { key: apiKey })).then((r) => r.text()),
    ]);
    expect(notifications.notifications.map((n) => n.kind).sort()).toEqual(["dispute-opened", "dispute-resolved"]);
    expect(emails.length).toBe(2);
    const seen = [
      ...hook.received.flatMap((r) => [JSON.stringify(r.headers), r.body]),
      JSON.stringify(notifications),
      ...emails.flatMap((e) => [e.subject, e.text, e.html]),
      ...ownerApi,
    ].join("\n");

    // The owner knows the rental by its reference, from the webhook and the dispute's messages.
    const messages = hook.received.filter((r) => !r.headers["x-health-check"]);
    expect(messages).toHaveLength(2);
    for (const m of messages) {
      expect(m.headers["x-rental-ref"]).toBe(rental.ref);
      expect(JSON.parse(m.body).rental.ref).toBe(rental.ref);
    }
    expect(emails.every((e) => `${e.subject} ${e.text}`.includes(rental.ref))).toBe(true);
    // …and by nothing that holds any part of its id.
    const lower = seen.toLowerCase();
    const hex = rental.id.replaceAll("-", "");
    for (let i = 0; i + 8 <= hex.length; i++) expect(lower).not.toContain(hex.slice(i, i + 8));

    // Every word the owner holds, tried as the rental code (as is, and in the code's own shape:
    // its hex characters only), opens nothing.
    const words = new Set(seen.match(/[A-Za-z0-9_-]{8,}/g) ?? []);
    const candidates = new Set<string>();
    for (const word of words) {
      candidates.add(word);
      const hexOnly = word.replace(/[^0-9a-f]/gi, "");
      if (hexOnly.length >= 8) candidates.add(hexOnly.slice(0, 32));
    }
    expect(candidates.has(rental.ref)).toBe(true);
    for (const candidate of candidates) {
      for (const res of [await status(candidate), await chat(candidate, "as the renter")]) {
        expect(res.status, candidate).not.toBe(200);
      }
    }
    // Nothing reached the webhook on the renter's rental from those attempts.
    expect(hook.received.filter((r) => !r.headers["x-health-check"])).toHaveLength(2);
    expect((await status(code)).status).toBe(200);
  });
});
