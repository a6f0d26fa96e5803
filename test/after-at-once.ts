// Next.js's after() needs a request scope, which route handlers called from a test lack. Test files
// that call such routes mock `next/server` with this: each task starts at once, and settleAfter()
// waits for every task started so far (call it before reading what the tasks write).
//
//   vi.mock("next/server", async (importOriginal) =>
//     (await import("@/test/after-at-once")).withAfterAtOnce(await importOriginal()));
const pending: Promise<unknown>[] = [];

export function withAfterAtOnce<T extends object>(nextServer: T): T {
  return { ...nextServer, after: (task: () => Promise<unknown>) => void pending.push(Promise.resolve().then(task)) };
}

export async function settleAfter(): Promise<void> {
  while (pending.length > 0) await pending.shift();
}
