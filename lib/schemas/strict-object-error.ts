import type { z } from "zod";

// The error map of a request body object: unknown fields are refused by name (so a typo such
// as `price_per_hour` is reported rather than silently ignored), and a body that is not an object
// says so. Other issues keep the messages of their fields.
export function strictObjectError(fields: readonly string[]) {
  return (issue: z.core.$ZodRawIssue) => {
    if (issue.code === "unrecognized_keys") {
      return `unknown field ${issue.keys.map((k) => `"${k}"`).join(", ")}; the fields are ${fields.join(", ")}`;
    }
    return issue.code === "invalid_type" ? "the body must be a JSON object" : undefined;
  };
}
