import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createSession } from "@/lib/auth/create-session";
import { ApiError } from "@/lib/http/api-error";
import { limiters } from "@/lib/ratelimit/policies";
import { makeOwner } from "@/test/fixtures";

// The wrapper itself, on a real session (PostgreSQL) and the real action budget (Redis): each
// step of account → input → limit → body → revalidation, and the errors mapped to the form.
const jar = vi.hoisted(() => ({ value: undefined as string | undefined }));
const revalidatePath = vi.hoisted(() => vi.fn());
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (name === "ars_session" && jar.value ? { name, value: jar.value } : undefined),
  }),
  // The page the action was posted from, as proxy.ts tells server code (lib/http/request-path.ts).
  headers: async () => new Headers({ "x-request-path": "/dashboard/keys?tab=all" }),
}));
vi.mock("next/cache", () => ({ revalidatePath }));

const { action, plainAction } = await import("@/lib/actions/action");
const { redirect } = await import("next/navigation");

const schema = z.object({ label: z.string().max(5, "must be at most 5 characters") });
const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [name, value] of Object.entries(fields)) f.append(name, value);
  return f;
};

async function redirectOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  const digest = (error as { digest?: string } | null)?.digest;
  if (!digest?.startsWith("NEXT_REDIRECT")) throw new Error(`expected a redirect, got ${String(error)}`);
  return digest.split(";")[2];
}

let accountId: string;
beforeEach(async () => {
  vi.useFakeTimers({ toFake: ["Date"] }); // the budget does not refill while a test runs
  revalidatePath.mockClear();
  const owner = await makeOwner();
  accountId = owner.id;
  jar.value = /^ars_session=([^;]*)/.exec((await createSession(owner.id, { method: "email" })).cookie)![1];
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const remaining = async () => (await limiters().dashboardAction.limit(accountId)).remaining;

describe("action", () => {
  it("hands the body the account, the parsed input and the bound ids, then revalidates", async () => {
    const body = vi.fn(async ({ account, input }: { account: { id: string }; input: { label: string } }, id: string) => ({
      ok: true as const,
      message: `${account.id}:${input.label}:${id}`,
    }));
    const act = action({ input: schema, what: "save it", revalidate: (id: string) => [`/things/${id}`, ["/dashboard", "layout"]] }, body);
    expect(await act("t-1", null, form({ label: "abc" }))).toEqual({ ok: true, message: `${accountId}:abc:t-1` });
    expect(revalidatePath.mock.calls).toEqual([["/things/t-1"], ["/dashboard", "layout"]]);
  });

  it("sends a visitor who is not signed in to /sign-in, to come back to the page; the body never runs", async () => {
    jar.value = undefined;
    const body = vi.fn(async () => ({ ok: true as const, message: "done" }));
    expect(await redirectOf(action({ input: schema, what: "save it" }, body)(null, form({ label: "abc" })))).toBe(
      "/sign-in?next=%2Fdashboard%2Fkeys%3Ftab%3Dall",
    );
    expect(body).not.toHaveBeenCalled();
  });

  it("bad input: field errors in words and the values handed back; nothing spent, nothing revalidated", async () => {
    const body = vi.fn(async () => ({ ok: true as const, message: "done" }));
    const act = action({ input: schema, values: (f) => ({ label: String(f.get("label")) }), what: "save it", revalidate: ["/x"] }, body);
    expect(await act(null, form({ label: "Label too long" }))).toEqual({
      ok: false,
      message: "Please correct this field. Label: must be at most 5 characters.",
      fieldErrors: { label: "must be at most 5 characters" },
      values: { label: "Label too long" },
    });
    expect(body).not.toHaveBeenCalled();
    expect(revalidatePath).not.toHaveBeenCalled();
    expect(await remaining()).toBe(29); // this call's token: the invalid form spent none
  });

  it("an ApiError becomes the form's message (and a field's, when it names one); nothing revalidated", async () => {
    const act = action({ what: "save it", revalidate: ["/x"] }, async () => {
      throw new ApiError(409, "This is refused, in words.");
    });
    expect(await act(null, form({}))).toEqual({ ok: false, message: "This is refused, in words.", fieldErrors: {} });
    const named = action({ what: "save it" }, async () => {
      throw new ApiError(400, "pricePerHour: must be positive");
    });
    expect(await named(null, form({}))).toEqual({
      ok: false,
      message: "Price per hour: must be positive",
      fieldErrors: { pricePerHour: "must be positive" },
    });
    expect(revalidatePath).not.toHaveBeenCalled();
  });

  it("an unexpected error is logged and answered with a generic sentence that gives nothing away", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const act = action({ what: "save it" }, async () => {
      throw new Error("connection to db-secret-host:5432 refused");
    });
    const state = await act(null, form({}));
    expect(state).toEqual({
      ok: false,
      message: "Something went wrong on our side while trying to save it; nothing was changed. Please try again.",
      fieldErrors: {},
    });
    expect(JSON.stringify(state)).not.toContain("db-secret-host");
    expect(log).toHaveBeenCalledWith("dashboard: save it failed", expect.any(Error));
  });

  it("rate limited: the refusal in the form's shape, with the values; the body never runs", async () => {
    for (let i = 0; i < 30; i++) await limiters().dashboardAction.limit(accountId);
    const body = vi.fn(async () => ({ ok: true as const, message: "done" }));
    const act = action({ input: schema, values: () => ({ label: "abc" }), what: "save it", revalidate: ["/x"] }, body);
    expect(await act(null, form({ label: "abc" }))).toEqual({
      ok: false,
      message: "Too many changes in a short time (at most 30 a minute); retry in 2 seconds.",
      fieldErrors: {},
      values: { label: "abc" },
    });
    expect(body).not.toHaveBeenCalled();
    expect(revalidatePath).not.toHaveBeenCalled();
  });

  it("a redirect from the body goes through, after revalidation", async () => {
    const act = action(
      { what: "create it", revalidate: ["/dashboard/things"] },
      async (): Promise<never> => redirect("/dashboard/things/1"),
    );
    expect(await redirectOf(act(null, form({})))).toBe("/dashboard/things/1");
    expect(revalidatePath).toHaveBeenCalledWith("/dashboard/things");
  });
});

describe("plainAction", () => {
  it("runs the body with the account and the bound ids, then revalidates", async () => {
    const seen: string[] = [];
    const act = plainAction(
      { refused: () => redirect("/limited"), revalidate: [["/dashboard", "layout"]] },
      async ({ account }, id: string) => {
        seen.push(`${account.id}:${id}`);
      },
    );
    await act("n-1");
    expect(seen).toEqual([`${accountId}:n-1`]);
    expect(revalidatePath).toHaveBeenCalledWith("/dashboard", "layout");
  });

  it("rate limited: `refused` decides where to go; the body never runs", async () => {
    for (let i = 0; i < 30; i++) await limiters().dashboardAction.limit(accountId);
    const body = vi.fn(async () => {});
    expect(await redirectOf(plainAction({ refused: () => redirect("/limited") }, body)())).toBe("/limited");
    expect(body).not.toHaveBeenCalled();
  });

  it("signed out: /sign-in, to come back to the page", async () => {
    jar.value = undefined;
    expect(await redirectOf(plainAction({ refused: () => redirect("/limited") }, async () => {})())).toBe(
      "/sign-in?next=%2Fdashboard%2Fkeys%3Ftab%3Dall",
    );
  });
});
