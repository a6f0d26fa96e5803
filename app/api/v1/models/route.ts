// GET /api/v1/models — OpenAI's model list: the rented agent, as the one model the code reaches.
import { renterMethodNotAllowed, renterPreflight, renterRoute } from "@/lib/http/routes/renter-route";
import { toOpenAiErrorResponse } from "@/lib/openai/openai-error-response";

export const GET = renterRoute(
  401,
  async ({ auth: rental }) =>
    Response.json({
      object: "list",
      data: [
        { id: rental.agent.id, object: "model", created: Math.floor(rental.startsAt.getTime() / 1000), owned_by: "agent-rental-service" },
      ],
    }),
  { errors: toOpenAiErrorResponse },
);

export const OPTIONS = renterPreflight;
export const POST = renterMethodNotAllowed("GET");
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
