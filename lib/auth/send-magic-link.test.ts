// The e-mail limit says exactly when the next link can be asked for, counted from the oldest of
// the recent links (clock injected).
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/http/api-error";
import { MAGIC_LINKS_PER_ADDRESS, sendMagicLink } from "./send-magic-link";

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 24, 12, minutes));

describe("sendMagicLink's limit", () => {
  it("refuses the sixth link within 15 minutes, naming the minutes until the oldest link expires", async () => {
    const email = `limit-${randomBytes(5).toString("hex")}@example.com`;
    for (let i = 0; i < MAGIC_LINKS_PER_ADDRESS; i++) await sendMagicLink(email, null, at(i));
    const refused = await sendMagicLink(email, null, at(10)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(429);
    expect((refused as ApiError).headers).toEqual({ "Retry-After": "300" });
    expect((refused as ApiError).message).toContain("ask again in 5 minutes.");
    // Once the oldest link is 15 minutes old, a new one goes out.
    await expect(sendMagicLink(email, null, at(15))).resolves.toBeUndefined();
  });
});
