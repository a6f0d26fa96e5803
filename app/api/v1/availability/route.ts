// GET /api/v1/availability — the rental's measured minutes, its down minutes and the refund they make due (docs/availability.md).
import { readRentalAvailability } from "@/lib/availability/read-rental-availability";
import { renterMethodNotAllowed, renterPreflight, renterRoute } from "@/lib/http/routes/renter-route";

export const GET = renterRoute(404, async ({ auth: rental }) => Response.json(await readRentalAvailability(rental.id)));

export const OPTIONS = renterPreflight;
export const POST = renterMethodNotAllowed("GET");
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
