"use server";
// Server actions of the owner's listing pages, on the actions' wrapper (lib/actions/action.ts:
// signed-in account, the shared zod schema, the account's action rate limit, revalidation), then
// the same service the owner API uses, so every rule (skills, prices, delete, test connection)
// has one implementation.
import { redirect } from "next/navigation";
import { action, plainAction } from "@/lib/actions/action";
import type { FormState } from "@/lib/actions/form-errors";
import { connectAgentWebhook } from "@/lib/agents/connect-agent-webhook";
import { createAgent } from "@/lib/agents/create-agent";
import { deleteAgent } from "@/lib/agents/delete-agent";
import { listingInputFromForm } from "@/lib/agents/listing-form-data";
import { rotateSigningSecret } from "@/lib/agents/rotate-signing-secret";
import { sendTestMessage, type TestMessageResult } from "@/lib/agents/send-test-message";
import { updateAgent } from "@/lib/agents/update-agent";
import { describeWebhookFailure } from "@/lib/format/webhook-failure";
import { agentListingPatchSchema, agentListingSchema } from "@/lib/schemas/agent-listing";
import { chatRequestSchema } from "@/lib/schemas/renter-api";
import { webhookConnectionSchema } from "@/lib/schemas/webhook-connection";

export type ConnectState =
  | (FormState & { test?: undefined; signingSecret?: undefined })
  | {
      ok: boolean;
      message: string;
      fieldErrors?: Record<string, string>;
      values?: { webhookUrl: string };
      test: {
        ok: boolean;
        statusCode: number | null;
        /** The recorded code ("unreachable: ECONNREFUSED"), a detail for developers. */
        error: string | null;
        latencyMs: number;
        status: "offline" | "available";
        /** Why it failed and what to do, in words (lib/format/webhook-failure.ts); null when it passed. */
        reason: string | null;
        nextStep: string | null;
      };
      /** The listing's signing secret, while no test has passed yet and on the first that does. */
      signingSecret?: string;
    };

// Every listing change shows on the overview, the list and the listing's page.
const DASHBOARD: ["/dashboard", "layout"] = ["/dashboard", "layout"];

/** New listing → saved `offline` (spec), then its page, where the webhook is connected. */
export const createListingAction = action(
  {
    input: agentListingSchema,
    read: listingInputFromForm,
    values: listingInputFromForm,
    what: "create the listing",
    revalidate: [DASHBOARD],
  },
  async ({ account, input }): Promise<never> => {
    // The category's skills are suggested in the form, never added unasked.
    const { id } = await createAgent(account.id, input, { status: "offline", categoryDefaults: false });
    redirect(`/dashboard/agents/${id}?created=1`);
  },
);

/** Every field of the form is sent; a blank price disables that duration. */
export const updateListingAction = action(
  {
    input: agentListingPatchSchema,
    read: listingInputFromForm,
    values: listingInputFromForm,
    what: "save the listing",
    revalidate: [DASHBOARD],
  },
  async ({ account, input, values }, agentId: string): Promise<FormState> => {
    await updateAgent(account.id, agentId, input, { categoryDefaults: false });
    return { ok: true, message: "Saved. The marketplace shows the new details now.", values };
  },
);

/**
 * "End the trial offer" (bound to the agent id): no more trials are issued, and every running one
 * stops at once (updateAgent; docs/trials.md).
 */
export const endTrialOfferAction = plainAction(
  {
    refused: () => redirect("/dashboard/agents?limited=1"),
    revalidate: (agentId: string) => [DASHBOARD, `/dashboard/agents/${agentId}`],
  },
  async ({ account }, agentId: string) => {
    await updateAgent(account.id, agentId, { trialMessages: null });
  },
);

/** Refused (409, in words) while a rental is active or when the agent has rental history. */
export const deleteListingAction = action(
  { what: "delete the listing", revalidate: [DASHBOARD] },
  async ({ account, form }, agentId: string): Promise<FormState> => {
    if (form.get("confirm") !== "yes") {
      return {
        ok: false,
        message: "Tick “Yes, delete this listing” to confirm.",
        fieldErrors: { confirm: "Tick this box to confirm." },
      };
    }
    await deleteAgent(account.id, agentId);
    redirect("/dashboard/agents?deleted=1");
  },
);

/**
 * Stores the webhook (encrypted) and tests it at once: 2xx → available, else offline, with the
 * failure in words. The signing secret comes back until a test passes (connectAgentWebhook).
 */
export const connectWebhookAction = action(
  {
    input: webhookConnectionSchema,
    read: (form) => ({
      webhookUrl: String(form.get("webhookUrl") ?? ""),
      webhookToken: form.get("webhookToken") ?? "",
    }),
    // The URL is handed back so the form keeps it; the token never is (the browser keeps its copy).
    values: (form) => ({ webhookUrl: String(form.get("webhookUrl") ?? "") }),
    // A test connection also spends from the webhook-test budgets.
    limit: (agentId: string) => ({ webhookTestOf: agentId }),
    what: "connect the webhook",
    revalidate: [DASHBOARD],
  },
  async ({ account, input, values }, agentId: string): Promise<ConnectState> => {
    const { agent, test, signingSecret } = await connectAgentWebhook(account.id, agentId, {
      url: input.webhookUrl,
      token: input.webhookToken,
    });
    const words = test.ok ? { reason: null, nextStep: null } : describeWebhookFailure(test);
    const message = test.ok
      ? `Connection works: the webhook answered HTTP ${test.statusCode} in ${test.latencyMs} ms. The agent is now available on the marketplace.`
      : `The webhook is saved, but it failed the test: ${words.reason} ${words.nextStep} The agent stays offline until a test passes.`;
    return {
      ok: test.ok,
      message,
      values,
      test: { ...test, ...words, status: agent.status },
      ...(signingSecret ? { signingSecret } : {}),
    };
  },
);

// "Rotate signing secret" (bound to the agent id): a new Standard Webhooks secret, shown once.
export const rotateSigningSecretAction = action(
  { what: "rotate the signing secret", revalidate: (agentId: string) => [`/dashboard/agents/${agentId}`] },
  async ({ account }, agentId: string): Promise<FormState & { signingSecret?: string }> => {
    const signingSecret = await rotateSigningSecret(account.id, agentId);
    return {
      ok: true,
      message: "New signing secret. Calls are signed with it from now on; the old one no longer verifies.",
      signingSecret,
    };
  },
);

// "Send a test message" (bound to the agent id): the webhook's answer as a renter would get it.
// It calls the webhook, so it spends from the same budgets as Test connection.
export const sendTestMessageAction = action(
  {
    input: chatRequestSchema,
    read: (form) => ({ message: String(form.get("message") ?? "") }),
    values: (form) => ({ message: String(form.get("message") ?? "") }),
    limit: (agentId: string) => ({ webhookTestOf: agentId }),
    what: "send the test message",
  },
  async ({ account, input, values }, agentId: string): Promise<FormState & { result?: TestMessageResult }> => {
    const result = await sendTestMessage(account.id, agentId, input.message);
    return {
      ok: true,
      message: `Your webhook ${result.status === 200 ? "answered" : "failed"} in ${result.latencyMs} ms; a renter would get HTTP ${result.status} with this body:`,
      values,
      result,
    };
  },
);
