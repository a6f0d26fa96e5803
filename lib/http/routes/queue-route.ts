import "server-only";
import type { z } from "zod";
import { ApiError } from "@/lib/http/api-error";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { readBodyText } from "@/lib/http/read-body";
import { route } from "@/lib/http/routes/route";
import { type BatchKind, queueConfigured, verifyQueueDelivery } from "@/lib/queue/qstash";

// A batch names at most 1,000 agent ids (37 bytes each in JSON): 64 KiB leaves room to spare.
const MAX_BODY_BYTES = 64 * 1024;

// Only QStash may deliver a batch: the raw body is read once (capped) and the Upstash-Signature
// JWT verified over exactly those bytes and this kind's URL before anything is parsed or run.
async function authenticateDelivery(kind: BatchKind, req: Request): Promise<string> {
  if (!queueConfigured()) {
    throw new ApiError(503, "Queue not configured: set QSTASH_TOKEN, QSTASH_CURRENT_SIGNING_KEY and QSTASH_NEXT_SIGNING_KEY.");
  }
  const body = await readBodyText(req, MAX_BODY_BYTES);
  const signature = req.headers.get("upstash-signature");
  if (!signature || !(await verifyQueueDelivery(kind, signature, body))) {
    throw new ApiError(401, "Missing or invalid Upstash-Signature: only QStash delivers batches here.");
  }
  return body;
}

/**
 * A queued batch's route, /api/queue/<kind> (docs/operations.md, "Batches and the queue"): POST
 * only, 503 while QStash is not configured, 401 for a delivery not signed by QStash, 400 for a body
 * the schema refuses; otherwise runs the batch and answers with its result. An error (the
 * database) answers 5xx, and QStash delivers the batch again later.
 */
export function queueRoute<S extends z.ZodType>(kind: BatchKind, schema: S, run: (batch: z.infer<S>) => Promise<unknown>) {
  const POST = route({ auth: (req) => authenticateDelivery(kind, req) }, async ({ auth: body }) => {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new ApiError(400, "Request body is not valid JSON.");
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ApiError(400, issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message);
    }
    return Response.json(await run(parsed.data));
  });
  const refuse = methodNotAllowed("POST");
  return { POST, GET: refuse, PUT: refuse, PATCH: refuse, DELETE: refuse };
}
