// Any other /api/public path: a JSON 404 instead of the framework's HTML page.
import { ownerNotFound } from "@/lib/http/routes/owner-route";

export const GET = ownerNotFound;
export const POST = ownerNotFound;
export const PUT = ownerNotFound;
export const PATCH = ownerNotFound;
export const DELETE = ownerNotFound;
export const OPTIONS = ownerNotFound;
