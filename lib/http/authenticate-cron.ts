import "server-only";
import { constantTimeEqual } from "@/lib/crypto/constant-time-equal";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/http/api-error";

// Cron routes run only for the scheduler: Vercel Cron (and the dev orchestrator) send
// `Authorization: Bearer <CRON_SECRET>`. Without a configured secret nothing may trigger them.
export async function authenticateCron(req: Request, secret: string | undefined = env.CRON_SECRET): Promise<void> {
  if (!secret) throw new ApiError(503, "Cron not configured: set CRON_SECRET.");
  const given = req.headers.get("authorization") ?? "";
  if (!constantTimeEqual(given, `Bearer ${secret}`)) {
    throw new ApiError(401, "Missing or invalid cron secret.");
  }
}
