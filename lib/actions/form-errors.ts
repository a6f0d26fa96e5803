import type { z } from "zod";
import { ApiError } from "@/lib/http/api-error";

/** What a dashboard form action hands back to its form: a sentence, and messages by field. */
export type FormState =
  | { ok: false; message: string; fieldErrors: Record<string, string>; values?: FormValues }
  | { ok: true; message: string; values?: FormValues };

/** A refused or failed action's answer: every form can show it. */
export type FormFailure = Extract<FormState, { ok: false }>;

/** What was submitted, handed back so the form shows it again after an error. */
export type FormValues = Record<string, string | string[]>;

export const FIELD_LABELS: Record<string, string> = {
  name: "Name",
  description: "Description",
  category: "Category",
  skills: "Skills",
  channels: "Channels",
  pricePerHour: "Price per hour",
  pricePerDay: "Price per day",
  pricePerMonth: "Price per month",
  pricePerMessage: "Price per message",
  trialMessages: "Free trial messages",
  guaranteePercent: "Uptime guarantee",
  webhookUrl: "Webhook URL",
  webhookToken: "Webhook token",
  label: "Label",
  message: "Message",
  answer: "Answer",
};

/** Field messages from a zod error: the first issue of each top-level field, in words. */
export function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    out[field] ??= issue.message;
  }
  return out;
}

export function invalid(error: z.ZodError): FormFailure {
  const fieldErrors = fieldErrorsOf(error);
  const list = Object.entries(fieldErrors).map(([field, message]) => `${FIELD_LABELS[field] ?? field}: ${message}`);
  return {
    ok: false,
    message: `Please correct ${list.length === 1 ? "this field" : "these fields"}. ${list.join("; ")}.`,
    fieldErrors,
  };
}

// A service's ApiError becomes its message (written for people); a message that starts with a
// field name ("pricePerHour: …") is also shown beside that field. Anything else is logged and
// reported without details.
export function failed(error: unknown, what: string): FormFailure {
  if (error instanceof ApiError) {
    const match = /^([a-zA-Z]+): (.*)$/s.exec(error.message);
    const field = match && match[1] in FIELD_LABELS ? match[1] : null;
    return {
      ok: false,
      message: field ? `${FIELD_LABELS[field]}: ${match![2]}` : error.message,
      fieldErrors: field ? { [field]: match![2] } : {},
    };
  }
  console.error(`dashboard: ${what} failed`, error);
  return {
    ok: false,
    message: `Something went wrong on our side while trying to ${what}; nothing was changed. Please try again.`,
    fieldErrors: {},
  };
}
