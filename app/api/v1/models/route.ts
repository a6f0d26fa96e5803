// GET /api/v1/models — OpenAI's model list: the rented agent, as the one model the code reaches.
import { renterMethodNotAllowed, renterPreflight, renterRoute } from "@/lib/http/routes/renter-route";
import { toOpenAiErrorResponse } from "@/lib/openai/openai-error-response";
import { modelListSchema } from "@/lib/schemas/openai-compat";

export const GET = renterRoute(
  401,
  async ({ auth: rental }) =>
    Response.json(
      modelListSchema.parse({
        object: "list",
        data: [
          { id: rental.agent.id, object: "model", created: Math.floor(rental.startsAt.getTime() / 1000), owned_by: "agent-rental-service" },
        ],
      }),
    ),
  { errors: toOpenAiErrorResponse },
);

export const OPTIONS = renterPreflight;
export const POST = renterMethodNotAllowed("GET");
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
