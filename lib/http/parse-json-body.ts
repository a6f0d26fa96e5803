import type { z } from "zod";
import { ApiError } from "@/lib/http/api-error";
import { readBodyText } from "@/lib/http/read-body";

// Reads a JSON body with a size cap and validates it. Every failure is a 400 that names the
// problem (413 for a body over the cap), so a script author can fix the request without guessing.
export async function parseJsonBody<S extends z.ZodType>(req: Request, schema: S, maxBytes: number): Promise<z.infer<S>> {
  const type = req.headers.get("content-type") ?? "";
  if (type.split(";")[0].trim().toLowerCase() !== "application/json") {
    throw new ApiError(400, "Content-Type must be application/json.");
  }
  const text = await readBodyText(req, maxBytes);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ApiError(400, "Request body is not valid JSON.");
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue.path.length ? issue.path.join(".") : "body";
    throw new ApiError(400, issue.path.length ? `${field}: ${issue.message}` : issue.message);
  }
  return result.data;
}
