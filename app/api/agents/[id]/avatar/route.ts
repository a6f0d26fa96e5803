// GET /api/agents/{id}/avatar — an agent's uploaded picture; 404 JSON when it has none (pages then draw one).
import { databaseAvatarStore } from "@/lib/avatars/avatar-store";
import { ApiError } from "@/lib/http/api-error";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/routes/route";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const GET = route({ auth: async () => undefined }, async ({ req }) => {
  const id = new URL(req.url).pathname.split("/")[3] ?? "";
  const avatar = UUID.test(id) ? await databaseAvatarStore.get(id.toLowerCase()) : null;
  if (!avatar) throw new ApiError(404, "This agent has no uploaded picture.");
  const headers = {
    ETag: `"${avatar.version}"`,
    // Page URLs carry ?v=<version>, so a new picture is a new URL; a day keeps stale copies short.
    "Cache-Control": "public, max-age=86400",
    "X-Content-Type-Options": "nosniff",
    // Shown as an image only: never a document that could run anything.
    "Content-Security-Policy": "default-src 'none'; sandbox",
  };
  if (req.headers.get("if-none-match") === headers.ETag) return new Response(null, { status: 304, headers });
  return new Response(Buffer.from(avatar.data), { headers: { ...headers, "Content-Type": avatar.contentType } });
});

export const POST = methodNotAllowed("GET");
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
