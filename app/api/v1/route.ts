// /api/v1 itself (and /v1 on an API host): the renter surface's JSON 404 with CORS, as for any
// other unknown /v1 path.
import { renterNotFound, renterPreflight } from "@/lib/http/routes/renter-route";

export const GET = renterNotFound;
export const POST = renterNotFound;
export const PUT = renterNotFound;
export const PATCH = renterNotFound;
export const DELETE = renterNotFound;
export const OPTIONS = renterPreflight;
