import "server-only";
import { revalidatePath } from "next/cache";
import { unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import { type FormFailure, failed, invalid } from "@/lib/actions/form-errors";
import type { SignedInAccount } from "@/lib/auth/current-account";
import { requireSignedInAccount } from "@/lib/auth/signed-in-account";
import { type ActionRefusal, limitAction } from "@/lib/ratelimit/limit-action";

/** A path to revalidate after the action, or [path, "layout"] for everything under it. */
export type Revalidation = string | [path: string, type: "layout" | "page"];

type Shared<A extends unknown[]> = {
  // Paths whose pages show what the action changed; `bound` are the ids bound to the action.
  revalidate?: Revalidation[] | ((...bound: A) => Revalidation[]);
};

type FormActionOptions<S extends z.ZodType | undefined, A extends unknown[], V> = Shared<A> & {
  // The form's fields; a form that does not pass answers with its field errors, in words.
  input?: S;
  // The schema's input from the form (default: each text field by name).
  read?: (form: FormData) => unknown;
  // What the form shows again after any refusal or failure (the token fields never are).
  values?: (form: FormData) => V;
  // Spend from the webhook-test budgets as well (the action sends a test connection).
  limit?: (...bound: A) => { webhookTestOf?: string };
  // Finishes "Something went wrong on our side while trying to …" (and names the log line).
  what: string;
};

type Input<S> = S extends z.ZodType ? z.output<S> : undefined;
export type ActionContext<S, V> = { account: SignedInAccount; input: Input<S>; values: V; form: FormData };

/**
 * The one wrapper of the dashboard's form actions, as route() is of the API routes: signed-in
 * account (else a redirect to /sign-in) → zod input (field errors in words) → the account's
 * action rate limit → body → revalidation. An ApiError becomes the form's message, anything else
 * is logged and answered with a sentence that gives nothing away. Produces what useActionState
 * expects, `(prev, form)`, after any ids bound to it (`.bind(null, agent.id)`), which the body
 * and the options receive as `bound`. A redirect from the body (after a create or a delete) still
 * revalidates first.
 */
export function action<S extends z.ZodType | undefined, R, A extends unknown[] = [], V = undefined>(
  options: FormActionOptions<S, A, V>,
  body: (ctx: ActionContext<S, V>, ...bound: A) => Promise<R>,
): (...args: [...bound: A, prev: unknown, form: FormData]) => Promise<R | FormFailure> {
  return async (...args) => {
    const form = args[args.length - 1] as FormData;
    const bound = args.slice(0, -2) as A;
    const account = await requireSignedInAccount();
    const values = options.values?.(form) as V;
    const fail = (failure: FormFailure): FormFailure =>
      values === undefined ? failure : { ...failure, values: values as FormFailure["values"] };
    let input: unknown;
    if (options.input) {
      const parsed = options.input.safeParse((options.read ?? textFields)(form));
      if (!parsed.success) return fail(invalid(parsed.error));
      input = parsed.data;
    }
    // After the input check, so a typo costs nothing from the budgets.
    const refusal = await limitAction(account.id, options.limit?.(...bound));
    if (refusal) return fail(refusal);
    let result: R;
    try {
      result = await body({ account, input: input as Input<S>, values, form }, ...bound);
    } catch (error) {
      if (!isNextSignal(error)) {
        return fail(failed(error, options.what));
      }
      revalidate(options.revalidate, bound);
      throw error;
    }
    revalidate(options.revalidate, bound);
    return result;
  };
}

/**
 * Actions of plain forms without a state to answer into (a button): signed-in account → the
 * action rate limit (`refused` must redirect, as there is nowhere else to say it) → body →
 * revalidation. Errors are not caught: the dashboard's error page shows them.
 */
export function plainAction<A extends unknown[] = []>(
  options: Shared<A> & { refused: (refusal: ActionRefusal) => never },
  body: (ctx: { account: SignedInAccount }, ...bound: A) => Promise<void>,
): (...bound: A) => Promise<void> {
  return async (...bound) => {
    const account = await requireSignedInAccount();
    const refusal = await limitAction(account.id);
    if (refusal) options.refused(refusal);
    await body({ account }, ...bound);
    revalidate(options.revalidate, bound);
  };
}

function textFields(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === "string") out[name] ??= value;
  return out;
}

function revalidate<A extends unknown[]>(paths: Shared<A>["revalidate"], bound: A) {
  for (const path of typeof paths === "function" ? paths(...bound) : (paths ?? [])) {
    if (typeof path === "string") revalidatePath(path);
    else revalidatePath(...path);
  }
}

// redirect(), notFound() and Next.js's other control-flow errors pass through untouched.
function isNextSignal(error: unknown): boolean {
  try {
    unstable_rethrow(error);
    return false;
  } catch {
    return true;
  }
}
