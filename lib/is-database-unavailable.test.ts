import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { ApiError } from "@/lib/http/api-error";
import { DATABASE_UNAVAILABLE_MESSAGE, toErrorResponse } from "@/lib/http/to-error-response";
import { isDatabaseUnavailable } from "@/lib/is-database-unavailable";

afterEach(() => vi.restoreAllMocks());

// A port nothing listens on (bound, then released).
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function prismaErrorAgainstClosedPort(): Promise<unknown> {
  const url = new URL(process.env.DATABASE_URL!);
  url.host = `127.0.0.1:${await closedPort()}`;
  const client = new PrismaClient({ adapter: new PrismaPg({ connectionString: url.toString(), max: 1 }) });
  try {
    return await client.account.count().then(
      () => null,
      (error: unknown) => error,
    );
  } finally {
    await client.$disconnect();
  }
}

describe("isDatabaseUnavailable", () => {
  it("recognises Prisma's error for a database server that is not there (P1001)", async () => {
    const error = await prismaErrorAgainstClosedPort();
    expect(error).toMatchObject({ code: "P1001" });
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it("recognises pg's own connection errors, refused or lost mid-query", async () => {
    const port = await closedPort();
    const client = new pg.Client({ host: "127.0.0.1", port });
    const refused = await client.connect().then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ code: "ECONNREFUSED" });
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
  });

  it("recognises the adapter's kinds and PostgreSQL's shutdown states, also when wrapped", () => {
    const adapterError = (cause: object) => Object.assign(new Error("driver"), { name: "DriverAdapterError", cause });
    for (const kind of ["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]) {
      expect(isDatabaseUnavailable(adapterError({ kind })), kind).toBe(true);
    }
    // "terminating connection due to administrator command": PostgreSQL is being stopped.
    const shutdown = adapterError({ kind: "postgres", originalCode: "57P01" });
    expect(isDatabaseUnavailable(shutdown)).toBe(true);
    const wrapped = Object.assign(new Error("Database error"), {
      name: "PrismaClientKnownRequestError",
      code: "P2010",
      meta: { driverAdapterError: shutdown },
    });
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("pool"), { name: "PrismaClientKnownRequestError", code: "P2024" }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("init"), { name: "PrismaClientInitializationError", errorCode: "P1001" }))).toBe(
      true,
    );
  });

  it("recognises a transaction that found no free connection in the pool (P2028), not other transaction errors", async () => {
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
    const client = new PrismaClient({ adapter: new PrismaPg(pool) });
    try {
      await client.$queryRaw`SELECT 1`; // the pool's one connection opened, so the first transaction starts at once
      let held!: () => void;
      const holding = new Promise<void>((resolve) => (held = resolve));
      const first = client.$transaction(
        async (tx) => {
          held();
          await tx.$executeRaw`SELECT pg_sleep(1)`;
        },
        { maxWait: 60_000 },
      );
      await holding;
      const busy = await client
        .$transaction(async (tx) => tx.$queryRaw`SELECT 1`, { maxWait: 50 })
        .then(
          () => null,
          (e: unknown) => e,
        );
      await first;
      expect(busy).toMatchObject({ code: "P2028", message: expect.stringContaining("Unable to start a transaction in the given time") });
      expect(isDatabaseUnavailable(busy)).toBe(true);
    } finally {
      await client.$disconnect();
      await pool.end();
    }
    // Prisma's other transaction API errors are bugs (a transaction used after it ended, or one that ran too long).
    for (const message of ["Transaction API error: Transaction already closed: …", "Transaction API error: Transaction not found."]) {
      expect(isDatabaseUnavailable(Object.assign(new Error(message), { name: "PrismaClientKnownRequestError", code: "P2028" }))).toBe(
        false,
      );
    }
  });

  it("does not mistake bugs, bad data or other services' outages for it", async () => {
    const agentId = "00000000-0000-4000-8000-000000000000";
    const constraint = await db.rating.create({ data: { rentalId: agentId, agentId, score: 5 } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(constraint).toMatchObject({ name: "PrismaClientKnownRequestError" });
    expect(isDatabaseUnavailable(constraint)).toBe(false);
    // An e-mail API or the chain being down is not the database being down.
    const fetchFailed = await fetch(`http://127.0.0.1:${await closedPort()}/`).then(
      () => null,
      (e: unknown) => e,
    );
    expect(fetchFailed).toMatchObject({ name: "TypeError", cause: { code: "ECONNREFUSED" } });
    expect(isDatabaseUnavailable(fetchFailed)).toBe(false);
    for (const other of [
      new Error("boom"),
      new ApiError(404, "Not found"),
      new TypeError("x is undefined"),
      null,
      undefined,
      "ECONNREFUSED",
      { code: 42 },
    ]) {
      expect(isDatabaseUnavailable(other)).toBe(false);
    }
    const cyclic: { name: string; message: string; cause?: unknown } = { name: "Error", message: "loop" };
    cyclic.cause = cyclic;
    expect(isDatabaseUnavailable(cyclic)).toBe(false);
  });
});

describe("toErrorResponse", () => {
  it("answers 503 JSON with Retry-After when the database is unavailable, logging the cause", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = toErrorResponse(await prismaErrorAgainstClosedPort());
    expect(res.status).toBe(503);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.json()).toEqual({ error: DATABASE_UNAVAILABLE_MESSAGE });
    expect(DATABASE_UNAVAILABLE_MESSAGE).toBe("The service is temporarily unavailable; try again shortly.");
    expect(log.mock.calls.flat().join(" ")).toMatch(/Database unavailable.*Can't reach database server/s);
  });

  it("still answers 500 for anything else, and ApiError as it says", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const res = toErrorResponse(new Error("boom"));
    expect(res.status).toBe(500);
    expect(res.headers.get("retry-after")).toBeNull();
    expect(await res.json()).toEqual({ error: "Internal error; please try again later." });
    expect(await toErrorResponse(new ApiError(409, "Taken")).json()).toEqual({ error: "Taken" });
  });
});
