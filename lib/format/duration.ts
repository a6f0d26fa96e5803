import type { DurationType } from "@/lib/generated/prisma/enums";

/** The rental durations in words: "1 hour", "per hour", and how long it lasts (a month is 30 days). */
export const DURATION_LABEL: Record<DurationType, { one: string; per: string; length: string }> = {
  hour: { one: "1 hour", per: "per hour", length: "60 minutes" },
  day: { one: "1 day", per: "per day", length: "24 hours" },
  month: { one: "1 month (30 days)", per: "per month", length: "30 days" },
};
