// Any other /api/v1 path: a JSON 404 with CORS instead of the framework's HTML page.
import { renterNotFound, renterPreflight } from "@/lib/http/routes/renter-route";

export const GET = renterNotFound;
export const POST = renterNotFound;
export const PUT = renterNotFound;
export const PATCH = renterNotFound;
export const DELETE = renterNotFound;
export const OPTIONS = renterPreflight;
