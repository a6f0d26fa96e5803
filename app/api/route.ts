// /api itself serves nothing: a JSON 404 naming the two surfaces, for every method.
import { apiNotFound } from "@/lib/http/api-not-found";

export const GET = apiNotFound;
export const HEAD = apiNotFound;
export const POST = apiNotFound;
export const PUT = apiNotFound;
export const PATCH = apiNotFound;
export const DELETE = apiNotFound;
export const OPTIONS = apiNotFound;
