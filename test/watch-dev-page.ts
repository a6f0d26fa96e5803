// A page of `npm run dev` in Chromium, watched for what a person would see go wrong: the page
// loading again by itself (the dev server's "HMR hash mismatch" reload loop) and any answer of
// 500 or more, to the page or to anything it fetched.
import type { Page, WebSocket } from "@playwright/test";

export type WatchedDevPage = {
  /** How many times the page's document was requested: 1 unless it reloaded. */
  loads(): number;
  /** What went wrong so far: reloads the dev server asked for, 5xx answers. */
  problems(): string[];
  /**
   * Resolves once the dev server has taken the page's subscriptions to updates and finished the
   * compilation that follows ("built"): the moment a stale update would have made it reload. Rejects
   * as soon as the page reloads instead.
   */
  settled(): Promise<void>;
  /** Resolves when the dev server next reports a finished compilation to the page. */
  nextBuilt(): Promise<void>;
};

export function watchDevPage(page: Page): WatchedDevPage {
  let loads = 0;
  const problems: string[] = [];
  let settle: { resolve: () => void; reject: (error: Error) => void };
  const settled = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  settled.catch(() => {});
  let waiting: Array<() => void> = [];

  page.on("request", (request) => {
    if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
    loads++;
    if (loads > 1) settle.reject(new Error(`${page.url()} loaded again by itself: ${problems.join("; ")}`));
  });
  page.on("response", (response) => {
    if (response.status() >= 500) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on("websocket", (socket: WebSocket) => {
    if (!socket.url().includes("/_next/hmr")) return;
    let subscribed = false;
    socket.on("framesent", ({ payload }) => {
      if (String(payload).includes('"turbopack-subscribe"')) subscribed = true;
    });
    socket.on("framereceived", ({ payload }) => {
      if (typeof payload !== "string") return;
      // A "restart" update moves the server's HMR version: every other page then reloads.
      if (/"type":"reloadPage"|"type":"restart"/.test(payload)) problems.push(`the dev server sent ${payload.slice(0, 160)}`);
      if (!payload.includes('"type":"built"')) return;
      if (subscribed) settle.resolve();
      for (const resolve of waiting) resolve();
      waiting = [];
    });
  });
  return {
    loads: () => loads,
    problems: () => problems,
    settled: () => settled,
    nextBuilt: () => new Promise<void>((resolve) => waiting.push(resolve)),
  };
}
