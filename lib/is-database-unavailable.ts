// Whether an error means "the database cannot be reached right now" (stopped, restarting, network
// cut, pool exhausted), as opposed to a bug or a bad query: such a request may succeed if simply
// tried again, so the API answers 503 with Retry-After instead of 500 (lib/http/to-error-response.ts).
// Duck-typed on names and codes, so it holds for the Next.js bundle's copy of Prisma too.

// Prisma's codes: can't reach the server, timed out reaching it, operation timed out, the server
// closed the connection, timed out waiting for a connection from the pool (a query).
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
// P2028 is every transaction API error; only this one says the pool stayed busy (lib/db.ts's maxWait).
const NO_CONNECTION_FOR_TRANSACTION = /Unable to start a transaction in the given time/;
// @prisma/adapter-pg's kinds for the same (lib/db.ts builds the client on that adapter).
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
// PostgreSQL's own: shutting down (admin, crash), starting up / not accepting, too many connections.
const SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300"]);
// What node's socket layer says when the server is gone (pg surfaces some of these unwrapped).
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH"]);
// pg's errors for a connection lost mid-query or a pool that could not connect; they carry no code.
const PG_MESSAGES = [
  /^Connection terminated( unexpectedly| due to connection timeout)?$/,
  /^timeout exceeded when trying to connect$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Cannot use a pool after calling end on the pool$/,
];

type Loose = {
  name?: unknown;
  code?: unknown;
  errorCode?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: unknown;
};

function adapterCauseUnavailable(adapterError: unknown): boolean {
  const cause = (adapterError as { cause?: { kind?: unknown; originalCode?: unknown; code?: unknown } } | null)?.cause;
  if (!cause || typeof cause !== "object") return false;
  if (typeof cause.kind === "string" && ADAPTER_KINDS.has(cause.kind)) return true;
  const sqlState = cause.originalCode ?? cause.code;
  return cause.kind === "postgres" && typeof sqlState === "string" && SQLSTATES.has(sqlState);
}

export function isDatabaseUnavailable(error: unknown): boolean {
  // Prisma wraps (meta.driverAdapterError, cause); follow a short chain, never a cycle.
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const e = current as Loose;
    const code = typeof e.code === "string" ? e.code : typeof e.errorCode === "string" ? e.errorCode : undefined;
    if (code && (PRISMA_CODES.has(code) || SQLSTATES.has(code))) return true;
    if (code === "P2028" && typeof e.message === "string" && NO_CONNECTION_FOR_TRANSACTION.test(e.message)) return true;
    // Only the error itself, not a cause: `fetch failed` caused by ECONNREFUSED is some other
    // service (an e-mail API, the chain), not the database.
    if (depth === 0 && code && SOCKET_CODES.has(code)) return true;
    if (e.name === "DriverAdapterError" && adapterCauseUnavailable(e)) return true;
    const meta = e.meta as { driverAdapterError?: unknown } | undefined;
    if (meta && adapterCauseUnavailable(meta.driverAdapterError)) return true;
    if (typeof e.message === "string" && e.name === "Error" && PG_MESSAGES.some((m) => m.test(e.message as string))) return true;
    current = e.cause;
  }
  return false;
}
