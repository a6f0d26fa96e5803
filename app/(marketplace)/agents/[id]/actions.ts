"use server";
// The agent page's action: "Start free trial" (docs/trials.md). A plain form (no client script):
// the signed-in account, the dashboard actions' rate limit, startTrial, then back to the page,
// which shows the trial's code — or, when it was refused, why, by a reason code in the URL (the
// page words it; no text from the URL is ever shown).
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { requireSignedInAccount } from "@/lib/auth/signed-in-account";
import { clientIp } from "@/lib/http/client-ip";
import { limitAction } from "@/lib/ratelimit/limit-action";
import { startTrial, TrialRefused } from "@/lib/trials/start-trial";

export async function startTrialAction(agentId: string): Promise<void> {
  const page = `/agents/${encodeURIComponent(agentId)}`;
  const account = await requireSignedInAccount();
  if (await limitAction(account.id)) redirect(`${page}?trial=busy#trial`);
  try {
    await startTrial({ accountId: account.id, agentId, client: clientIp(await headers()) });
  } catch (error) {
    if (error instanceof TrialRefused) redirect(`${page}?trial=${error.reason}#trial`);
    throw error;
  }
  revalidatePath(page);
  redirect(`${page}#trial`);
}
