import "server-only";
import { after } from "next/server";

/**
 * Work the answer does not wait for: a bot's owner call (every platform wants its answer within
 * 3 seconds), the record of a chat call. Inside a request it runs after the response has gone
 * (Next.js's `after`: the function is kept alive for it, within the route's `maxDuration`);
 * outside one (the CLI, a test calling a handler) there is no "after", so it runs at once and the
 * promise settles when it is done. A failure is logged, never thrown: nobody is left to answer.
 */
export function afterResponse(what: string, task: () => Promise<void>): Promise<void> {
  const run = () =>
    task().catch((error: unknown) => {
      console.error(`[after response] ${what} failed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
    });
  try {
    after(run);
  } catch {
    // `after` was called outside a request scope: its only failure.
    return run();
  }
  return Promise.resolve();
}
