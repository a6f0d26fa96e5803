import { z } from "zod";
import { strictObjectError } from "@/lib/schemas/strict-object-error";

// Body of POST /public/agents/{id}/connect. Only the shape is checked here (this schema is shared
// with the UI, so it reads no env): https-only in production is checked by connectAgentWebhook,
// and whether the address may be called at all by the safe fetch at call time, after DNS
// resolution, where it cannot be sidestepped.
export const webhookConnectionSchema = z.strictObject(
  {
    webhookUrl: z
      .url({
        protocol: /^https?$/,
        error: (issue) =>
          issue.input === undefined ? "is required" : "must be a full http(s) URL such as https://agent.example.com/hooks/agent",
      })
      .max(2048, "must be at most 2048 characters")
      // An "@" in the authority part means user info (the safe fetch would refuse it later).
      .refine(
        (url) => !/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(url),
        "must not contain a user name or password; the token is sent in the Authorization header",
      ),
    // Sent as `Authorization: Bearer <token>`, so it must be a valid header value.
    webhookToken: z
      .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
      .min(32, "must be at least 32 characters (use a random secret)")
      .max(512, "must be at most 512 characters")
      .regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces"),
  },
  { error: strictObjectError(["webhookUrl", "webhookToken"]) },
);
