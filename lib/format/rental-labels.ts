// Words and badge styles the renter dashboard shows for rental values (server and client safe).
import type { Channel, DurationType } from "@/lib/generated/prisma/enums";

export type VisibleStatus = "active" | "completed" | "cancelled" | "disputed";

export const STATUS_LABEL: Record<VisibleStatus, { label: string; tone: "success" | "warning" | "neutral" | "danger"; explanation: string }> = {
  active: { label: "Active", tone: "success", explanation: "Paid and running: the agent answers your code until the end time." },
  completed: { label: "Completed", tone: "neutral", explanation: "Ended; the escrow paid the owner." },
  cancelled: { label: "Cancelled", tone: "neutral", explanation: "Cancelled and refunded in full to the wallet that paid." },
  disputed: { label: "Disputed", tone: "danger", explanation: "You opened a dispute: the payment is frozen until an arbiter decides." },
};

/** "Ended" reads better than "Active" once the end time has passed but the sweep has not run yet. */
export function statusFor(status: VisibleStatus, endsAt: Date, now: Date = new Date()): { label: string; tone: string; explanation: string } {
  if (status === "active" && endsAt.getTime() <= now.getTime()) {
    return { label: "Ended", tone: "neutral", explanation: "The rental time is over; it is marked completed when the escrow is released (within about a minute)." };
  }
  return STATUS_LABEL[status];
}

export const DURATION_WORDS: Record<DurationType, string> = { hour: "1 hour", day: "1 day", month: "1 month (30 days)" };

export const CHANNEL_WORDS: Record<Channel, string> = { API: "API", Telegram: "Telegram", Discord: "Discord", Slack: "Slack" };

const DATE_FORMAT = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});

/** "21 Nov 2026, 12:00 UTC": one fixed zone on the server, so the page never changes after load. */
export function formatDateTime(date: Date): string {
  return `${DATE_FORMAT.format(date)} UTC`;
}

/** "2 d 03 h 04 m 05 s" style remaining time; "Ended" at or below zero. */
export function formatRemaining(ms: number): string {
  if (ms <= 0) return "Ended";
  const total = Math.floor(ms / 1000);
  const d = Math.floor(total / 86_400);
  const h = Math.floor((total % 86_400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => n.toString().padStart(2, "0");
  if (d > 0) return `${d}d ${two(h)}h ${two(m)}m left`;
  if (h > 0) return `${h}h ${two(m)}m ${two(s)}s left`;
  return `${m}m ${two(s)}s left`;
}

/** The same, in words for screen readers: "2 days, 3 hours and 4 minutes left". */
export function describeRemaining(ms: number): string {
  if (ms <= 0) return "The rental has ended.";
  const total = Math.floor(ms / 1000);
  const parts: string[] = [];
  const d = Math.floor(total / 86_400);
  const h = Math.floor((total % 86_400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const unit = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;
  if (d) parts.push(unit(d, "day"));
  if (h) parts.push(unit(h, "hour"));
  if (m || parts.length === 0) parts.push(m ? unit(m, "minute") : "less than a minute");
  const text = parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : parts[0];
  return `${text} left.`;
}
