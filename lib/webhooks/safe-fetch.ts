import "server-only";
import { lookup as dnsLookup } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { env } from "@/lib/env";
import { isBlockedAddress } from "./is-blocked-address";

export type SafeFetchInit = {
  method?: "POST";
  headers: Record<string, string>;
  body?: string;
  /** Covers the whole exchange: DNS, connect, response headers and body. */
  timeoutMs: number;
  /**
   * With it, the reply (headers and body) gets this long from when the request went out (its last
   * byte handed to the connection); `timeoutMs` still bounds the whole exchange. Time spent before
   * that, connecting or waiting for this process while it is busy with other work, is then not
   * counted against the webhook.
   */
  replyTimeoutMs?: number;
  maxBytes: number;
};

export type SafeFetchPolicy = {
  /** Let requests reach private, loopback and link-local addresses (dev and tests only). */
  allowPrivate: boolean;
  /** Public targets must use https; http stays possible only to private targets that are allowed. */
  requireHttps: boolean;
  /** How long a kept-alive connection may wait for its next call (default: a second). */
  idleConnectionMs?: number;
};

export type SafeFetchErrorReason = "blocked" | "invalid_url" | "timeout" | "unreachable" | "too_large";

export type SafeFetchResult =
  | { kind: "response"; status: number; headers: Record<string, string>; body: Buffer; latencyMs: number }
  | { kind: "error"; reason: SafeFetchErrorReason; detail: string; latencyMs: number };

type Refusal = { reason: SafeFetchErrorReason; detail: string };

// One answer for a name that resolves to a private address and for one that does not resolve at
// all: told apart, they would let an owner map the service's internal DNS through the Connect
// test ("blocked" = that internal name exists). The resolved address is never named either.
const NOT_PUBLIC: Refusal = { reason: "blocked", detail: "host does not resolve to a public address" };

function policyFromEnv(): SafeFetchPolicy {
  return { allowPrivate: env.ALLOW_PRIVATE_WEBHOOKS, requireHttps: env.NODE_ENV === "production" };
}

/**
 * The only way to call an owner-supplied URL. Redirects are never followed, every address the
 * host resolves to is checked before connecting, and network failures come back as values.
 * Details never contain the URL's query or header values: they end up in logs and owner views.
 */
export async function safeFetch(url: string, init: SafeFetchInit, policy: SafeFetchPolicy = policyFromEnv()): Promise<SafeFetchResult> {
  const started = performance.now();
  const latencyMs = () => Math.round(performance.now() - started);
  const fail = ({ reason, detail }: Refusal): SafeFetchResult => ({
    kind: "error",
    reason,
    detail,
    latencyMs: latencyMs(),
  });

  const target = parseTarget(url, policy);
  if ("reason" in target) return fail(target);
  const plainHttp = target.protocol === "http:";

  // Node connects to IP literals without calling `lookup`, so they are judged here.
  const literal = target.hostname.replace(/^\[(.*)\]$/, "$1");
  if (isIP(literal)) {
    const refusal = judgeAddress(literal, plainHttp, policy);
    if (refusal) return fail(refusal);
  }

  return new Promise((resolve) => {
    let settled = false;
    let lookupRefusal: Refusal | null = null;
    let replyTimer: NodeJS.Timeout | undefined;
    const settle = (result: SafeFetchResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(replyTimer);
      resolve(result);
    };
    const abort = (refusal: Refusal) => {
      settle(fail(refusal));
      request.destroy();
    };

    // Checking the addresses the socket will actually use (not a separate, earlier lookup)
    // leaves no window for DNS rebinding.
    const guardedLookup: LookupFunction = (hostname, options, callback) => {
      dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
        if (err) {
          // With private targets allowed (development) the name reveals nothing: say what failed.
          if (!policy.allowPrivate) lookupRefusal = NOT_PUBLIC;
          return callback(err, []);
        }
        for (const { address } of addresses) {
          const refusal = judgeAddress(address, plainHttp, policy);
          if (refusal) {
            lookupRefusal = refusal;
            return callback(Object.assign(new Error(refusal.detail), { code: "EREFUSED_ADDRESS" }), []);
          }
        }
        if (options.all) return callback(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      });
    };

    const timer = setTimeout(() => abort({ reason: "timeout", detail: `no complete reply within ${init.timeoutMs} ms` }), init.timeoutMs);
    const send = plainHttp ? http.request : https.request;
    let request: http.ClientRequest;

    // A kept-alive connection the server closed just as it was reused fails before any reply:
    // the request is sent again, once, on a connection of its own, with the same headers (the same
    // `webhook-id`, so a receiver that did see the first can tell it is the same call). Never after
    // this call has settled: destroying a request on timeout also ends in ECONNRESET.
    const sendOnce = (isRetry: boolean) => {
      request = send(target, {
        method: init.method ?? "POST",
        headers: init.headers,
        lookup: guardedLookup,
        agent: isRetry ? false : connectionPool(policy, plainHttp),
      });

      const { replyTimeoutMs } = init;
      if (replyTimeoutMs !== undefined) {
        // Sent again (below): the reply's clock starts again with the second request.
        request.once("finish", () => {
          if (settled) return;
          clearTimeout(replyTimer);
          replyTimer = setTimeout(
            () => abort({ reason: "timeout", detail: `no complete reply within ${replyTimeoutMs} ms of the request` }),
            replyTimeoutMs,
          );
        });
      }

      request.on("error", (err: NodeJS.ErrnoException) => {
        if (settled) return;
        if (!isRetry && request.reusedSocket && err.code === "ECONNRESET") return sendOnce(true);
        // Only the error code: messages can quote the host, and nothing here needs more.
        settle(fail(lookupRefusal ?? { reason: "unreachable", detail: err.code ?? "network error" }));
      });

      request.on("response", (response) => {
        const tooLarge = { reason: "too_large", detail: `reply exceeds ${init.maxBytes} bytes` } as const;
        if (Number(response.headers["content-length"]) > init.maxBytes) return abort(tooLarge);

        const chunks: Buffer[] = [];
        let received = 0;
        response.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > init.maxBytes) return abort(tooLarge);
          chunks.push(chunk);
        });
        response.on("error", (err: NodeJS.ErrnoException) => {
          settle(fail({ reason: "unreachable", detail: err.code ?? "connection lost" }));
        });
        response.on("end", () => {
          settle({
            kind: "response",
            status: response.statusCode ?? 0,
            headers: flattenHeaders(response.headers),
            body: Buffer.concat(chunks),
            latencyMs: latencyMs(),
          });
        });
      });

      request.end(init.body);
    };
    try {
      sendOnce(false);
    } catch (error) {
      // http.request throws at once on a header it cannot send: the call fails with that error,
      // and its timer goes too (firing later, it would find no request to abort).
      clearTimeout(timer);
      throw error;
    }
  });
}

// Connections stay open between calls, one pool per policy. Reusing one is safe: every socket
// was opened through the guarded lookup, to an address judged then, and a DNS change later cannot
// move it. An idle connection is closed after a second, before the usual server keep-alive
// timeouts (2–5 s) end it: a request sent on a connection the server is just closing would fail.
const IDLE_MS = 1_000;
const pools = new Map<string, http.Agent>();

function connectionPool(policy: SafeFetchPolicy, plainHttp: boolean): http.Agent {
  const idleMs = policy.idleConnectionMs ?? IDLE_MS;
  const key = `${plainHttp}:${policy.allowPrivate}:${policy.requireHttps}:${idleMs}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = new (plainHttp ? http.Agent : https.Agent)({ keepAlive: true, timeout: idleMs });
    pools.set(key, pool);
  }
  return pool;
}

function parseTarget(url: string, policy: SafeFetchPolicy): URL | Refusal {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { reason: "invalid_url", detail: "not a valid URL" };
  }
  // Credentials in the URL would be sent along and end up in logs; the token header is the way.
  if (target.username || target.password) {
    return { reason: "invalid_url", detail: "URL must not contain credentials" };
  }
  if (target.protocol === "https:") return target;
  // With private targets disallowed, no http target could pass the address check below.
  if (target.protocol === "http:" && (!policy.requireHttps || policy.allowPrivate)) return target;
  const detail = policy.requireHttps ? "URL must use https" : "URL must use http or https";
  return { reason: "invalid_url", detail };
}

function judgeAddress(address: string, plainHttp: boolean, policy: SafeFetchPolicy): Refusal | null {
  const isPrivate = isBlockedAddress(address);
  if (isPrivate && !policy.allowPrivate) return NOT_PUBLIC;
  if (!isPrivate && plainHttp && policy.requireHttps) {
    return { reason: "invalid_url", detail: "URL must use https" };
  }
  return null;
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}
