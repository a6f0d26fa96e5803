// /api/public itself (and /public on an API host): the owner surface's JSON 404, as for any
// other unknown /public path.
import { ownerNotFound } from "@/lib/http/routes/owner-route";

export const GET = ownerNotFound;
export const POST = ownerNotFound;
export const PUT = ownerNotFound;
export const PATCH = ownerNotFound;
export const DELETE = ownerNotFound;
export const OPTIONS = ownerNotFound;
