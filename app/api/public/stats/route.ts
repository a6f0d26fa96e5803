// GET /api/public/stats — rentals, revenue, chat calls, error rate, latency and uptime of the
// key's account, per agent and in total.
import { loadOwnerStats } from "@/lib/agents/load-owner-stats";
import { ownerMethodNotAllowed, ownerRoute } from "@/lib/http/routes/owner-route";

export const GET = ownerRoute(async ({ auth }) => Response.json(await loadOwnerStats(auth.accountId)));

export const POST = ownerMethodNotAllowed("GET");
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
