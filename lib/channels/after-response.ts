import "server-only";
import { after } from "next/server";

/**
 * Runs a bot's slow work (the owner call, up to the webhook timeout) after the platform has its
 * answer: every platform wants one within 3 seconds. Next.js keeps the function alive for it
 * (`after`; `maxDuration` on the route covers the timeout). A failure is logged, never thrown:
 * nobody is left to answer.
 */
export function afterResponse(what: string, task: () => Promise<void>): void {
  after(() =>
    task().catch((error: unknown) => {
      console.error(`[channels] ${what} failed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
    }),
  );
}
