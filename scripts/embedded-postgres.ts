// PostgreSQL without services for `npm run dev`: PGlite (Postgres compiled to WebAssembly)
// persisted in a folder and served on 127.0.0.1 by pglite-socket, so pg, psql and
// @prisma/adapter-pg connect to it like to any server.
//
// It serves ONE connection at a time (a second one is refused with "Too many connections"):
// clients must use a single connection, e.g. `new PrismaPg({ connectionString: url, max: 1 })`.
// Never point SHADOW_DATABASE_URL at it: PGlite ignores the database name.
import { mkdir } from "node:fs/promises";
import net from "node:net";
import { PGlite } from "@electric-sql/pglite";
import { fuzzystrmatch } from "@electric-sql/pglite/contrib/fuzzystrmatch";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

const HOST = "127.0.0.1";
const DEFAULT_PORT = 54329;

// Checked before PGlite opens the folder: whoever holds the port may well be another embedded
// server on the same data folder, and two PGlite instances on one folder corrupt it.
function assertPortFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "EADDRINUSE"
          ? new Error(
              `Embedded PostgreSQL: port ${port} on ${HOST} is already in use (another ` +
                "`npm run dev`?). Stop it or choose another port.",
            )
          : error,
      );
    });
    probe.listen(port, HOST, () => probe.close(() => resolve()));
  });
}

// port 0 picks a free port (tests).
export async function startEmbeddedPostgres(opts: { dataDir: string; port?: number }): Promise<{ url: string; stop(): Promise<void> }> {
  const port = opts.port ?? DEFAULT_PORT;
  if (port !== 0) await assertPortFree(port);
  await mkdir(opts.dataDir, { recursive: true });

  // The extensions the migrations create (CREATE EXTENSION) must be loaded into PGlite first.
  const db = await PGlite.create({ dataDir: opts.dataDir, extensions: { fuzzystrmatch, pg_trgm } });
  const server = new PGLiteSocketServer({ db, host: HOST, port });
  try {
    await server.start();
  } catch (error) {
    await db.close();
    throw error;
  }
  // "host:port", with the port the OS chose when asked for 0.
  const boundPort = Number(server.getServerConn().split(":").pop());

  let stopped: Promise<void> | undefined;
  return {
    url: `postgresql://postgres@${HOST}:${boundPort}/postgres`,
    stop() {
      // close() flushes PGlite's data to the folder; it must come after the last client left.
      stopped ??= server.stop().then(() => db.close());
      return stopped;
    },
  };
}
