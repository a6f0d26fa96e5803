import { z } from "zod";

// The dashboard's API key forms. A label is optional: blank (or only spaces) means none.
export const apiKeyLabelSchema = z.object({
  label: z
    .string()
    .trim()
    .max(60, "must be at most 60 characters")
    .optional()
    .transform((v) => v || undefined),
});

// Revoke sends the key's id; its form (a guid of this account's key) is checked by the service,
// which answers a malformed id and another account's key alike, so nothing is revealed here.
export const apiKeyRevokeSchema = z.object({ keyId: z.string().default("") });
