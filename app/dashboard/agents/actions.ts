"use server";
// Server actions of the owner's listing pages. Each one: the signed-in account (else a redirect
// to /sign-in), the account's action rate limit (limitAction), the shared zod schema, then the
// same service the owner API uses, so every rule (skills, prices, delete, test connection) has
// one implementation.
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { connectAgentWebhook } from "@/lib/agents/connect-agent-webhook";
import { createAgent } from "@/lib/agents/create-agent";
import { deleteAgent } from "@/lib/agents/delete-agent";
import { updateAgent } from "@/lib/agents/update-agent";
import { requireSignedInAccount } from "@/lib/auth/signed-in-account";
import { failed, invalid, type FormState } from "@/lib/dashboard/owner/form-errors";
import { listingInputFromForm } from "@/lib/dashboard/owner/listing-form-data";
import { limitAction } from "@/lib/ratelimit/limit-action";
import { agentListingPatchSchema, agentListingSchema } from "@/lib/schemas/agent-listing";
import { webhookConnectionSchema } from "@/lib/schemas/webhook-connection";

export type ConnectState =
  | (FormState & { test?: undefined })
  | {
      ok: boolean;
      message: string;
      fieldErrors?: Record<string, string>;
      values?: { webhookUrl: string };
      test: { ok: boolean; statusCode: number | null; error: string | null; latencyMs: number; status: "offline" | "available" };
    };

/** New listing → saved `offline` (spec), then its page, where the webhook is connected. */
export async function createListingAction(_prev: FormState | null, form: FormData): Promise<FormState> {
  const account = await requireSignedInAccount();
  const values = listingInputFromForm(form);
  const limited = await limitAction(account.id);
  if (limited) return { ...limited, values };
  const parsed = agentListingSchema.safeParse(values);
  if (!parsed.success) return { ...invalid(parsed.error), values };
  let id: string;
  try {
    id = (await createAgent(account.id, parsed.data, { status: "offline" })).id;
  } catch (error) {
    return { ...failed(error, "create the listing"), values };
  }
  revalidatePath("/dashboard", "layout");
  redirect(`/dashboard/agents/${id}?created=1`);
}

/** Every field of the form is sent; a blank price disables that duration. */
export async function updateListingAction(agentId: string, _prev: FormState | null, form: FormData): Promise<FormState> {
  const account = await requireSignedInAccount();
  const values = listingInputFromForm(form);
  const limited = await limitAction(account.id);
  if (limited) return { ...limited, values };
  const parsed = agentListingPatchSchema.safeParse(values);
  if (!parsed.success) return { ...invalid(parsed.error), values };
  let saved: Awaited<ReturnType<typeof updateAgent>>;
  try {
    saved = await updateAgent(account.id, agentId, parsed.data);
  } catch (error) {
    return { ...failed(error, "save the listing"), values };
  }
  revalidatePath("/dashboard", "layout");
  // The stored skills are shown (a blank list became the category's defaults).
  return { ok: true, message: "Saved. The marketplace shows the new details now.", values: { ...values, skills: saved.skills } };
}

/** Refused (409, in words) while a rental is active or when the agent has rental history. */
export async function deleteListingAction(agentId: string, _prev: FormState | null, form: FormData): Promise<FormState> {
  const account = await requireSignedInAccount();
  const limited = await limitAction(account.id);
  if (limited) return limited;
  if (form.get("confirm") !== "yes") {
    return { ok: false, message: "Tick “Yes, delete this listing” to confirm.", fieldErrors: { confirm: "Tick this box to confirm." } };
  }
  try {
    await deleteAgent(account.id, agentId);
  } catch (error) {
    return failed(error, "delete the listing");
  }
  revalidatePath("/dashboard", "layout");
  redirect("/dashboard/agents?deleted=1");
}

/** Stores the webhook (encrypted) and tests it at once: 2xx → available, else offline. */
export async function connectWebhookAction(agentId: string, _prev: ConnectState | null, form: FormData): Promise<ConnectState> {
  const account = await requireSignedInAccount();
  // The URL is handed back so the form keeps it; the token never is (the browser keeps its copy).
  const values = { webhookUrl: String(form.get("webhookUrl") ?? "") };
  const parsed = webhookConnectionSchema.safeParse({ webhookUrl: values.webhookUrl, webhookToken: form.get("webhookToken") ?? "" });
  if (!parsed.success) return { ...invalid(parsed.error), values };
  // After validation, so a typo costs no webhook test; the webhook-test budgets apply as well.
  const limited = await limitAction(account.id, { webhookTestOf: agentId });
  if (limited) return { ...limited, values };
  try {
    const { agent, test } = await connectAgentWebhook(account.id, agentId, { url: parsed.data.webhookUrl, token: parsed.data.webhookToken });
    revalidatePath("/dashboard", "layout");
    const status = agent.status;
    const message = test.ok
      ? `Connection works: the webhook answered HTTP ${test.statusCode} in ${test.latencyMs} ms. The agent is now available on the marketplace.`
      : `The test failed: ${test.statusCode === null ? test.error : `the webhook answered HTTP ${test.statusCode}`} (after ${test.latencyMs} ms). The webhook is saved; the agent stays offline until a test or a health check passes.`;
    return { ok: test.ok, message, values, test: { ...test, status } };
  } catch (error) {
    return { ...failed(error, "connect the webhook"), values };
  }
}
