// A local stand-in for Upstash QStash, for tests: the publish endpoint the official client
// (@upstash/qstash, Client.publish/publishJSON) calls, and deliveries signed as QStash signs them,
// so the app's batch routes are verified by the official Receiver exactly as in production.
// `@upstash/qstash-cli`'s dev server cannot serve here: its install downloads the server binary
// from artifacts.upstash.com, which this machine cannot reach.
//
// What it implements (read from the client's source, node_modules/@upstash/qstash, and QStash's
// documentation):
// - POST {QSTASH_URL}/v2/publish/<destination URL>, `Authorization: Bearer <token>`; the client's
//   headers: Upstash-Method, Upstash-Deduplication-Id, Upstash-Content-Based-Deduplication,
//   Upstash-Flow-Control-Key and -Value ("parallelism=N, rate=N, period=Ns"), Upstash-Retries,
//   Upstash-Delay, Upstash-Forward-<name> (sent on as <name>), Content-Type. Answers 201
//   `{messageId, url}`, or 202 `{messageId, url, deduplicated: true}` for a deduplication id it
//   has seen (the message is not enqueued again).
// - Delivery: the Upstash-Method request to the destination with the body as published, Content-Type,
//   the forwarded headers, Upstash-Message-Id, Upstash-Retried and Upstash-Signature: a JWT, HS256
//   under the current signing key, claims iss "Upstash", sub = the destination URL, iat = nbf = now,
//   exp = now + 5 minutes, jti, and body = the base64url SHA-256 of the body (padded, as QStash
//   sends it; the Receiver ignores the padding).
// - Retries of a non-2xx or failed delivery (Upstash-Retries, default 3), after a short backoff.
// - Flow control per key: at most `parallelism` deliveries of a key in flight at once, at most
//   `rate` started per `period`; the rest wait in order.
// Every publish and every delivery attempt is recorded, with its start and end, for assertions.
import { createHash, createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export type PublishRecord = {
  messageId: string;
  destination: string;
  method: string;
  body: string;
  headers: Record<string, string>;
  deduplicationId: string | null;
  flowControl: { key: string; parallelism: number | null; rate: number | null; periodMs: number } | null;
  deduplicated: boolean;
};

export type DeliveryRecord = {
  messageId: string;
  destination: string;
  flowKey: string | null;
  /** 0 for the first try, n for the n-th retry (Upstash-Retried). */
  retried: number;
  startedAt: number;
  endedAt: number;
  /** The destination's status, or 0 when it could not be reached. */
  status: number;
  response: string;
};

type Message = { record: PublishRecord; retries: number; retried: number };

export type StandinOptions = {
  token: string;
  currentSigningKey: string;
  /** Where a destination is really reached: the app's public URL mapped onto a local server. */
  route?: (destination: string) => string;
  /** First retry after this many ms, doubling (default 20). */
  retryDelayMs?: number;
};

const base64url = (data: Buffer | string) => Buffer.from(data).toString("base64url");

/** QStash's Upstash-Signature for a delivery of `body` to `destination`, signed with `key`. */
export function signDelivery(key: string, destination: string, body: string, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = base64url(
    JSON.stringify({
      iss: "Upstash",
      sub: destination,
      exp: nowSeconds + 300,
      nbf: nowSeconds,
      iat: nowSeconds,
      jti: `jwt_${randomBytes(12).toString("hex")}`,
      body: `${createHash("sha256").update(body).digest("base64url")}=`,
    }),
  );
  const signature = createHmac("sha256", key).update(`${header}.${payload}`).digest("base64url");
  return `${header}.${payload}.${signature}`;
}

function parseFlowValue(value: string): { parallelism: number | null; rate: number | null; periodMs: number } {
  const parts = Object.fromEntries(value.split(",").map((part) => part.trim().split("=") as [string, string]));
  const period = parts.period ?? "1s";
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[period.slice(-1)] ?? 1_000;
  return {
    parallelism: parts.parallelism ? Number(parts.parallelism) : null,
    rate: parts.rate ? Number(parts.rate) : null,
    periodMs: Number.parseFloat(period) * unit,
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startQStashStandin(options: StandinOptions) {
  const published: PublishRecord[] = [];
  const deliveries: DeliveryRecord[] = [];
  const byDeduplicationId = new Map<string, string>();
  const messages = new Map<string, Message>();
  // Per flow-control key: deliveries in flight, start times (for the rate), and the waiting list.
  const flows = new Map<string, { active: number; starts: number[]; waiting: (() => void)[]; timer: boolean }>();
  let pending = 0;
  let refusing = 0;
  let idleWaiters: (() => void)[] = [];
  const retryDelayMs = options.retryDelayMs ?? 20;
  const route = options.route ?? ((destination: string) => destination);

  const settle = () => {
    if (pending === 0) for (const resolve of idleWaiters.splice(0)) resolve();
  };

  // Takes a turn under the message's flow control: resolves, with the function that ends the
  // turn, once the key has room (parallelism) and a start left in its period (rate).
  function turn(record: PublishRecord): Promise<() => void> {
    const control = record.flowControl;
    if (!control) return Promise.resolve(() => {});
    const flow = flows.get(control.key) ?? { active: 0, starts: [], waiting: [], timer: false };
    flows.set(control.key, flow);
    const pump = () => {
      while (flow.waiting.length > 0) {
        const now = Date.now();
        flow.starts = flow.starts.filter((t) => t > now - control.periodMs);
        if (control.parallelism !== null && flow.active >= control.parallelism) return;
        if (control.rate !== null && flow.starts.length >= control.rate) {
          if (!flow.timer) {
            flow.timer = true;
            setTimeout(
              () => {
                flow.timer = false;
                pump();
              },
              flow.starts[0] + control.periodMs - now,
            );
          }
          return;
        }
        flow.active++;
        flow.starts.push(now);
        flow.waiting.shift()!();
      }
    };
    return new Promise((resolve) => {
      flow.waiting.push(() =>
        resolve(() => {
          flow.active--;
          pump();
        }),
      );
      pump();
    });
  }

  async function deliver(message: Message): Promise<void> {
    const { record } = message;
    const done = await turn(record);
    const startedAt = performance.now();
    let status = 0;
    let response = "";
    let endedAt = 0;
    try {
      const res = await fetch(route(record.destination), {
        method: record.method,
        headers: {
          ...record.headers,
          "upstash-message-id": record.messageId,
          "upstash-retried": String(message.retried),
          "upstash-signature": signDelivery(options.currentSigningKey, record.destination, record.body),
          "user-agent": "Upstash-QStash",
        },
        body: record.method === "GET" || record.method === "HEAD" ? undefined : record.body,
      });
      status = res.status;
      response = await res.text();
    } catch (error) {
      response = error instanceof Error ? error.message : String(error);
    } finally {
      // Ended before the turn is given up: the next delivery of the key starts after this.
      endedAt = performance.now();
      done();
    }
    deliveries.push({
      messageId: record.messageId,
      destination: record.destination,
      flowKey: record.flowControl?.key ?? null,
      retried: message.retried,
      startedAt,
      endedAt,
      status,
      response,
    });
    if ((status < 200 || status >= 300) && message.retried < message.retries) {
      const delay = retryDelayMs * 2 ** message.retried;
      message.retried++;
      await new Promise((resolve) => setTimeout(resolve, delay));
      return deliver(message);
    }
  }

  function enqueue(message: Message, delayMs = 0): void {
    pending++;
    void new Promise((resolve) => setTimeout(resolve, delayMs))
      .then(() => deliver(message))
      .finally(() => {
        pending--;
        settle();
      });
  }

  const server = createServer(async (req, res) => {
    const answer = (status: number, body: unknown) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    const url = new URL(req.url ?? "/", "http://standin");
    const body = await readBody(req);
    if (req.headers.authorization !== `Bearer ${options.token}`) return answer(401, { error: "invalid token" });
    if (req.method !== "POST" || !url.pathname.startsWith("/v2/publish/")) return answer(404, { error: "not found" });
    if (refusing > 0) {
      refusing--;
      return answer(500, { error: "the stand-in was told to refuse this publish" });
    }
    // The client joins the destination URL onto the path; keep it as written ("https://…").
    const destination = decodeURIComponent(req.url!.slice("/v2/publish/".length)).replace(/^(https?):\/+/, "$1://");

    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value !== "string") continue;
      if (name.startsWith("upstash-forward-")) headers[name.slice("upstash-forward-".length)] = value;
      else if (name === "content-type") headers[name] = value;
    }
    const deduplicationId =
      (req.headers["upstash-deduplication-id"] as string | undefined) ??
      (req.headers["upstash-content-based-deduplication"] === "true"
        ? createHash("sha256").update(`${destination}\n${body}`).digest("hex")
        : null);
    const flowKey = req.headers["upstash-flow-control-key"] as string | undefined;
    const flowValue = req.headers["upstash-flow-control-value"] as string | undefined;
    if (flowKey && !flowValue) return answer(400, { error: "flow control key without a value" });

    const known = deduplicationId ? byDeduplicationId.get(deduplicationId) : undefined;
    const record: PublishRecord = {
      messageId: known ?? `msg_${randomBytes(16).toString("hex")}`,
      destination,
      method: (req.headers["upstash-method"] as string | undefined) ?? "POST",
      body,
      headers,
      deduplicationId,
      flowControl: flowKey ? { key: flowKey, ...parseFlowValue(flowValue!) } : null,
      deduplicated: Boolean(known),
    };
    published.push(record);
    if (known) return answer(202, { messageId: known, url: destination, deduplicated: true });
    if (deduplicationId) byDeduplicationId.set(deduplicationId, record.messageId);

    const message: Message = { record, retries: Number(req.headers["upstash-retries"] ?? 3), retried: 0 };
    messages.set(record.messageId, message);
    const delay = req.headers["upstash-delay"] as string | undefined;
    enqueue(message, delay ? Number.parseInt(delay, 10) * 1_000 : 0);
    answer(201, { messageId: record.messageId, url: destination });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    published,
    deliveries,
    /** Answers the next `count` publishes with a 500 (QStash down), enqueuing nothing. */
    refusePublishes(count: number): void {
      refusing = count;
    },
    /** Delivers a message again, as QStash may (at least once): same body, a fresh signature. */
    redeliver(messageId: string): void {
      const message = messages.get(messageId);
      if (!message) throw new Error(`no message ${messageId}`);
      enqueue({ record: message.record, retries: 0, retried: 0 });
    },
    /** Resolves once every message published so far has been delivered (or has used its retries). */
    idle(): Promise<void> {
      if (pending === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    /** The most deliveries of one flow-control key that were ever in flight at the same moment. */
    maxInFlight(flowKey: string): number {
      const edges = deliveries
        .filter((d) => d.flowKey === flowKey)
        .flatMap((d) => [
          [d.startedAt, 1],
          [d.endedAt, -1],
        ])
        // Ends before starts at the same instant: a delivery that ends as the next starts is not overlap.
        .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      let now = 0;
      let max = 0;
      for (const [, change] of edges) {
        now += change;
        max = Math.max(max, now);
      }
      return max;
    },
    close(): Promise<void> {
      idleWaiters = [];
      return new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}

export type QStashStandin = Awaited<ReturnType<typeof startQStashStandin>>;

/**
 * For a test file's vi.hoisted, before lib/env loads: a stand-in, and the settings that point the
 * app at it (QSTASH_TOKEN, QSTASH_URL, both signing keys) with APP_URL a public-looking origin
 * whose deliveries the stand-in sends to `target.origin` (the test's local server, set later).
 */
export async function configureQStashStandin(appUrl = "https://app.test") {
  const target = { origin: "" };
  const keys = { current: `sig_${randomBytes(16).toString("hex")}`, next: `sig_${randomBytes(16).toString("hex")}` };
  const token = `qstash_${randomBytes(16).toString("hex")}`;
  const standin = await startQStashStandin({
    token,
    currentSigningKey: keys.current,
    route: (destination) =>
      target.origin && destination.startsWith(appUrl) ? target.origin + destination.slice(appUrl.length) : destination,
  });
  Object.assign(process.env, {
    QSTASH_TOKEN: token,
    QSTASH_URL: standin.url,
    QSTASH_CURRENT_SIGNING_KEY: keys.current,
    QSTASH_NEXT_SIGNING_KEY: keys.next,
    APP_URL: appUrl,
  });
  return { standin, keys, target, appUrl };
}
