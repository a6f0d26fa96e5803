import { readBodyBytes } from "@/lib/http/read-body";

/**
 * Reads an HTML form post (`application/x-www-form-urlencoded` or `multipart/form-data`) of at
 * most `maxBytes` (413 past it, see readBodyBytes). Returns null when the body is not a form or
 * does not parse as one: a form handler answers that as it answers a missing field.
 */
export async function parseFormBody(req: Request, maxBytes: number): Promise<FormData | null> {
  const type = req.headers.get("content-type") ?? "";
  const media = type.split(";")[0].trim().toLowerCase();
  if (media !== "application/x-www-form-urlencoded" && media !== "multipart/form-data") return null;
  const bytes = await readBodyBytes(req, maxBytes);
  // The bytes are already in memory and capped; the platform's parser does the rest.
  return new Response(new Uint8Array(bytes), { headers: { "content-type": type } }).formData().catch(() => null);
}
