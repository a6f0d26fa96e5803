import { z } from "zod";

// The owner's public name on the marketplace ("by Ada Labs"). Blank removes it.
export const displayNameSchema = z.object({
  displayName: z
    .string()
    .trim()
    .max(60, "must be at most 60 characters")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
    .regex(/^[^\u0000-\u001f\u007f]*$/, "must not contain control characters (such as a tab or a line break)")
    .transform((name) => name || null),
});
