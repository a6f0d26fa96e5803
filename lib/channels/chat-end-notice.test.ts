import { describe, expect, it } from "vitest";
import { availabilityTerms } from "@/lib/availability/availability-terms";
import { chatEndNotice } from "@/lib/channels/chat-end-notice";

const now = new Date("2026-11-26T12:00:00Z");
const rental = (status: string, endsAt = "2026-11-26T18:00:00Z") => ({
  status,
  startsAt: new Date("2026-11-26T06:00:00Z"),
  endsAt: new Date(endsAt),
  agent: { name: "Echo" },
});

describe("the chat sweep's notice", () => {
  it("says a disputed rental is disputed and frozen until the dispute is decided, never that it is over", () => {
    const text = chatEndNotice("Discord", rental("disputed"), now);
    expect(text).toBe(
      "Your rental of Echo is disputed, so this chat is disconnected. This rental is disputed: its payment is frozen in the escrow and " +
        "the agent cannot be used until the dispute is decided. If the dispute is decided for the owner while the rental still runs, " +
        "send /start code:<code> here again.",
    );
    expect(text).not.toContain("over");
    expect(chatEndNotice("Slack", rental("disputed"), now)).toContain("send /agent start <code> here again");
  });

  it("says a rental whose time is up is over, and a cancelled one cancelled", () => {
    expect(chatEndNotice("Telegram", rental("active", "2026-11-26T11:00:00Z"), now)).toMatch(
      /^Your rental of Echo is over, so this chat is disconnected\. This rental ended 26 Nov 2026, 11:00 UTC\./,
    );
    expect(chatEndNotice("Telegram", rental("completed"), now)).toMatch(
      /^Your rental of Echo is over, so this chat is disconnected\. This rental has ended\./,
    );
    expect(chatEndNotice("Telegram", rental("cancelled"), now)).toBe(
      "Your rental of Echo was cancelled, so this chat is disconnected. This rental was cancelled (its payment was refunded), so it cannot be used.",
    );
  });

  it("tells a rental that ran to its end its measured uptime and the refund due for the downtime", () => {
    const hour = { startsAt: new Date("2026-11-26T10:00:00Z"), endsAt: new Date("2026-11-26T11:00:00Z") };
    const measured = (down: number[]) =>
      availabilityTerms({ ...hour, priceMicro: 10_000_000n, guaranteePermille: 990, minutesMeasured: [0, 60], minutesDown: down }, now);
    const ended = { ...rental("active", "2026-11-26T11:00:00Z"), ...hour };
    expect(chatEndNotice("Telegram", ended, now, measured([10, 25]))).toContain(
      "The agent was up for 75% of the rental's 60 minutes (15 down), against its 99% uptime guarantee. " +
        "2.50 USDC of the price comes back to your wallet for the downtime when the payment is settled.",
    );
    expect(chatEndNotice("Telegram", ended, now, measured([]))).toContain(
      "The agent was up for 100% of the rental's 60 minutes (none down), against its 99% uptime guarantee. That is within the guarantee: the payment goes to the owner.",
    );
  });
});
