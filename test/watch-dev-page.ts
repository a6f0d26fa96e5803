// A page of `npm run dev` in Chromium, watched for what a person would see go wrong: the page
// loading again by itself (the dev server's "HMR hash mismatch" reload loop) and any answer of
// 500 or more, to the page or to anything it fetched.
import type { Page, WebSocket } from "@playwright/test";

export type WatchedDevPage = {
  /** How many times the page's document was requested: 1 unless it reloaded. */
  loads(): number;
  /** What went wrong so far: reloads the dev server asked for, 5xx answers. */
  problems(): string[];
  /** A marker of what the page has received so far, for `caughtUp(since)`. */
  mark(): number;
  /**
   * Resolves once the dev server has nothing more to tell the page: a "built" (a finished
   * compilation) received after `since` (a `mark()`) on a socket the page had subscribed to updates
   * on, or else a quiet spell (no frame, no compilation in progress) once it has subscribed. Says
   * which. Rejects as soon as the page reloads instead, and after `boundMs` with what it saw.
   */
  caughtUp(since?: number, boundMs?: number): Promise<"built" | "quiet">;
  /** The last frames the dev server sent the page, each with the seconds since it was opened. */
  recentFrames(): string[];
};

// Why "built" or a quiet spell, not "built" alone: Next.js (16.4, hot-reloader-turbopack) sends
// "built" to every open page at the end of each Turbopack update cycle, and a cycle runs when
// something is compiled. A request for a route already compiled in this server's life, or a
// subscription whose chunk lists were already computed for another page, need not start one; and a
// cycle set off by a cron's request may end before a wait starts. So the next "built" is not
// guaranteed to come, and waiting for it alone can wait forever. A quiet spell once the page has
// subscribed (nothing sent, no "building" without its "built") means the server had nothing more
// to say. The checks themselves (no reload, no 5xx, no "restart"/"reloadPage") do not rest on this
// wait: every frame is recorded while the page stays open, and they are read at the end of the run.
// So the spell can be short: a frame later than it is still recorded and fails the run's checks
// (in CI a 15 s spell, ending one wait of six in most runs, cost the ten runs about two minutes).
const QUIET_MS = 5_000;
const BOUND_MS = 600_000; // a hang detector: a first compile in CI, beside the other suites, has taken three minutes

export function watchDevPage(page: Page): WatchedDevPage {
  const opened = Date.now();
  let loads = 0;
  const problems: string[] = [];
  const frames: string[] = [];
  let seq = 0; // counts frames and reloads
  let subscribed = false;
  let building = false;
  let lastFrameAt = 0;
  let builtAt = -1; // seq of the last "built" received after subscribing
  let reloaded: Error | undefined;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };

  page.on("request", (request) => {
    if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
    loads++;
    seq++;
    if (loads > 1) reloaded = new Error(`${page.url()} loaded again by itself: ${problems.join("; ")}`);
    notify();
  });
  page.on("response", (response) => {
    if (response.status() >= 500) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on("websocket", (socket: WebSocket) => {
    if (!socket.url().includes("/_next/hmr")) return;
    socket.on("framesent", ({ payload }) => {
      if (!String(payload).includes('"turbopack-subscribe"')) return;
      subscribed = true;
      notify();
    });
    socket.on("close", () => frames.push(`${seconds()} s: socket closed`));
    socket.on("framereceived", ({ payload }) => {
      if (typeof payload !== "string") return;
      seq++;
      lastFrameAt = Date.now();
      frames.push(`${seconds()} s: ${payload.slice(0, 120)}`);
      if (frames.length > 20) frames.shift();
      // A "restart" update moves the server's HMR version: every other page then reloads.
      if (/"type":"reloadPage"|"type":"restart"/.test(payload)) problems.push(`the dev server sent ${payload.slice(0, 160)}`);
      if (payload.includes('"type":"building"')) building = true;
      if (payload.includes('"type":"built"')) {
        building = false;
        if (subscribed) builtAt = seq;
      }
      notify();
    });
  });
  const seconds = () => Math.round((Date.now() - opened) / 100) / 10;

  return {
    loads: () => loads,
    problems: () => problems,
    mark: () => seq,
    recentFrames: () => [...frames],
    caughtUp(since = 0, boundMs = BOUND_MS) {
      const called = Date.now();
      return new Promise((resolve, reject) => {
        let quiet: ReturnType<typeof setTimeout> | undefined;
        const done = () => {
          listeners.delete(check);
          clearTimeout(quiet);
          clearTimeout(bound);
        };
        const check = () => {
          clearTimeout(quiet);
          if (reloaded || builtAt > since) {
            done();
            if (reloaded) reject(reloaded);
            else resolve("built");
            return;
          }
          if (!subscribed || building) return; // the bound, or the next frame, decides
          const quietFor = Date.now() - Math.max(called, lastFrameAt);
          if (quietFor < QUIET_MS) {
            quiet = setTimeout(check, QUIET_MS - quietFor + 10);
            return;
          }
          done();
          resolve("quiet");
        };
        const bound = setTimeout(() => {
          done();
          const state = !subscribed ? "the page never subscribed to updates" : building ? "a compilation was still going on" : "";
          reject(
            new Error(
              `${page.url()}: no "built" nor ${QUIET_MS / 1000} s of quiet within ${boundMs / 1000} s (${state}); ` +
                `last frames:\n${frames.join("\n") || "(none)"}`,
            ),
          );
        }, boundMs);
        listeners.add(check);
        check();
      });
    },
  };
}
