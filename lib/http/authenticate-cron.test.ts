import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/http/api-error";
import { authenticateCron } from "@/lib/http/authenticate-cron";

const secret = "a-cron-secret-of-at-least-16-chars";
const request = (authorization?: string) =>
  new Request("http://localhost/api/cron/health-checks", { headers: authorization ? { authorization } : {} });

async function refusal(promise: Promise<void>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("authenticateCron", () => {
  it("accepts exactly `Bearer <CRON_SECRET>`", async () => {
    await expect(authenticateCron(request(`Bearer ${secret}`), secret)).resolves.toBeUndefined();
  });

  it.each([
    ["no header", undefined],
    ["a wrong secret", "Bearer not-the-cron-secret-at-all"],
    ["the secret without Bearer", secret],
    ["a prefix of the secret", `Bearer ${secret.slice(0, -1)}`],
  ])("refuses %s with 401", async (_, header) => {
    const error = await refusal(authenticateCron(request(header), secret));
    expect(error.status).toBe(401);
  });

  it("answers 503 when CRON_SECRET is not set, whatever is sent", async () => {
    const error = await refusal(authenticateCron(request(`Bearer ${secret}`), undefined));
    expect(error.status).toBe(503);
    expect(error.message).toMatch(/cron not configured/i);
  });
});
