// What `npm test` needs on the machine, made ready before the suites run: PostgreSQL on
// 127.0.0.1:5432 and Redis on 127.0.0.1:6379 (the vitest suite), pg_dump (the encryption-at-rest
// test) and Debian's Chromium (the browser tests). Whatever already answers is used as it is. A
// service that does not answer is started for the run alone, throwaway: a PostgreSQL cluster in a
// temporary folder (trust auth; initdb refuses root, so as the postgres user when run as root) and
// a Redis that keeps nothing on disk. Missing programs are installed with apt-get where this user
// may (root, or sudo without a password); elsewhere the error names the command to run. stop()
// stops exactly what was started here, and removes its folders.
//
// A PgBouncer in transaction mode in front of that PostgreSQL is started for every run (Debian's
// `pgbouncer`, installed like the rest when missing), on a free port: the vitest suites that touch
// the database run a second time through it (vitest.pooler.config.ts), and so does the three-server
// browser test (docs/testing.md). Its URL is handed on as PGBOUNCER_URL.
import { execFile, spawn } from "node:child_process";
import { accessSync, constants, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "./free-port";

const run = promisify(execFile);

export type StartedService = { name: string; stop(): Promise<void> };

/** A started PgBouncer: `url` reaches the database `postgres` through it (change the path for another). */
export type StartedPgBouncer = StartedService & { url: string; port: number };

export type TestServiceOptions = {
  postgresPort?: number;
  redisPort?: number;
  chromiumPath?: string;
  log?: (line: string) => void;
};

export type TestServices = { started: StartedService[]; pgbouncer: StartedPgBouncer };

/** True when something accepts TCP connections on 127.0.0.1:port. */
export function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Makes every service answer; returns what it started, to be stopped by stopServices, and the PgBouncer. */
export async function startTestServices(options: TestServiceOptions = {}): Promise<TestServices> {
  const { postgresPort = 5432, redisPort = 6379, chromiumPath = "/usr/bin/chromium", log = console.log } = options;
  const started: StartedService[] = [];
  try {
    await ensureProgram(chromiumPath, "chromium", log);
    if (!(await onPath("pg_dump"))) await aptInstall(["postgresql-client"], "pg_dump", log);
    const postgres = await ensurePostgres(postgresPort, log);
    if (postgres) started.push(postgres);
    const redis = await ensureRedis(redisPort, log);
    if (redis) started.push(redis);
    const pgbouncer = await ensurePgBouncer(postgresPort, log);
    started.push(pgbouncer);
    return { started, pgbouncer };
  } catch (error) {
    await stopServices(started);
    throw error;
  }
}

/** Stops what startTestServices started, the last first; one that fails does not keep the rest running. */
export async function stopServices(started: StartedService[], log: (line: string) => void = console.error): Promise<void> {
  for (const service of [...started].reverse()) {
    await service.stop().catch((error: Error) => log(`Stopping ${service.name} failed: ${error.message}`));
  }
}

export async function ensurePostgres(port: number, log: (line: string) => void): Promise<StartedService | undefined> {
  if (await answers(port)) return undefined;
  let bin = postgresBin();
  if (!bin) {
    await aptInstall(["postgresql"], "PostgreSQL", log);
    // Debian's package may start its own cluster on 5432: that one is the machine's, not ours.
    if (await answers(port)) return undefined;
    bin = postgresBin()!;
  }
  log(`PostgreSQL does not answer on 127.0.0.1:${port}: starting a throwaway one for this run`);
  const dir = mkdtempSync(path.join(tmpdir(), "ars-test-postgres-"));
  const asRoot = process.getuid?.() === 0;
  // As root, initdb and the server run as the postgres user, who must own the folder.
  const as = async (command: string, args: string[]) =>
    asRoot ? run("runuser", ["-u", "postgres", "--", command, ...args]) : run(command, args);
  if (asRoot) await run("chown", ["postgres:", dir]);
  const data = path.join(dir, "data");
  await as(path.join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  const ctl = path.join(bin, "pg_ctl");
  await as(ctl, ["-D", data, "-o", `-h 127.0.0.1 -p ${port} -k ${dir}`, "-l", path.join(dir, "log"), "-w", "start"]);
  return {
    name: `PostgreSQL on 127.0.0.1:${port}`,
    async stop() {
      await as(ctl, ["-D", data, "-m", "fast", "-w", "stop"]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function ensureRedis(port: number, log: (line: string) => void): Promise<StartedService | undefined> {
  if (await answers(port)) return undefined;
  if (!(await onPath("redis-server"))) {
    await aptInstall(["redis-server"], "Redis", log);
    if (await answers(port)) return undefined; // the package started the machine's own
  }
  log(`Redis does not answer on 127.0.0.1:${port}: starting a throwaway one for this run`);
  const dir = mkdtempSync(path.join(tmpdir(), "ars-test-redis-"));
  const args = ["--bind", "127.0.0.1", "--port", String(port), "--save", "", "--appendonly", "no", "--dir", dir];
  const server = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let said = "";
    server.stdout!.on("data", (chunk) => {
      said += chunk;
      if (said.includes("Ready to accept connections")) resolve();
    });
    server.once("exit", (code) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${said}`)));
  });
  server.stdout!.resume();
  return {
    name: `Redis on 127.0.0.1:${port}`,
    async stop() {
      server.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Where Debian's package puts it (/usr/sbin may be off a non-root user's PATH).
const PGBOUNCER = ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"];

/**
 * A PgBouncer of this run's own in front of the PostgreSQL on 127.0.0.1:postgresPort, on `port` (a
 * free one by default), in transaction mode: every database of that server under its own name,
 * trust auth for `postgres` (as the server itself), a pool of 20 server connections per database
 * and user, 2,000 clients. `ignore_startup_parameters`: pg and Prisma send extra_float_digits and
 * options at connect, which PgBouncer would refuse. As root it runs as the postgres user (it
 * refuses root too). It is always started (never a machine's own): the tests need transaction mode.
 */
export async function ensurePgBouncer(postgresPort: number, log: (line: string) => void, port?: number): Promise<StartedPgBouncer> {
  let bin = pgbouncerBin();
  if (!bin) {
    await aptInstall(["pgbouncer"], "PgBouncer", log);
    bin = pgbouncerBin();
    if (!bin) throw new Error(`pgbouncer is still missing after apt-get install pgbouncer (looked in ${PGBOUNCER.join(", ")})`);
  }
  const listen = port ?? (await freePort());
  const dir = mkdtempSync(path.join(tmpdir(), "ars-test-pgbouncer-"));
  const asRoot = process.getuid?.() === 0;
  const file = (name: string) => path.join(dir, name);
  writeFileSync(file("userlist.txt"), '"postgres" ""\n');
  writeFileSync(
    file("pgbouncer.ini"),
    [
      "[databases]",
      `* = host=127.0.0.1 port=${postgresPort}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${listen}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${file("userlist.txt")}`,
      "pool_mode = transaction",
      "max_client_conn = 2000",
      "default_pool_size = 20",
      "ignore_startup_parameters = extra_float_digits,options",
      // Its console (the database "pgbouncer": SHOW CONFIG, SHOW POOLS) for the tests.
      "admin_users = postgres",
      `logfile = ${file("pgbouncer.log")}`,
      `pidfile = ${file("pgbouncer.pid")}`,
      "",
    ].join("\n"),
  );
  if (asRoot) await run("chown", ["-R", "postgres:", dir]);
  // -d: it forks into the background once its port is open, and writes its pid file.
  const args = ["-d", file("pgbouncer.ini")];
  const started = asRoot ? run("runuser", ["-u", "postgres", "--", bin, ...args]) : run(bin, args);
  await started.catch((error: Error) => {
    const said = existsSync(file("pgbouncer.log")) ? readFileSync(file("pgbouncer.log"), "utf8") : "";
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`pgbouncer did not start: ${error.message}\n${said}`);
  });
  // The background process writes its pid file after the foreground one has exited.
  const pidOf = () => (existsSync(file("pgbouncer.pid")) ? Number(readFileSync(file("pgbouncer.pid"), "utf8").trim()) || 0 : 0);
  const deadline = Date.now() + 10_000;
  let pid = pidOf();
  while (!pid || !(await answers(listen))) {
    if (Date.now() > deadline || (pid && !alive(pid))) {
      if (pid && alive(pid)) process.kill(pid, "SIGTERM");
      const said = existsSync(file("pgbouncer.log")) ? readFileSync(file("pgbouncer.log"), "utf8") : "";
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`pgbouncer did not answer on 127.0.0.1:${listen}:\n${said}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    pid ||= pidOf();
  }
  log(`PgBouncer (transaction mode) on 127.0.0.1:${listen} in front of PostgreSQL on 127.0.0.1:${postgresPort}`);
  return {
    name: `PgBouncer on 127.0.0.1:${listen}`,
    port: listen,
    url: `postgresql://postgres@127.0.0.1:${listen}/postgres`,
    async stop() {
      // SIGINT: a safe shutdown that waits for the clients' transactions in flight; SIGTERM
      // (immediate) would cut them. Its clients are all gone once the tests end.
      if (alive(pid)) process.kill(pid, "SIGINT");
      const until = Date.now() + 10_000;
      while (alive(pid) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
      if (alive(pid)) process.kill(pid, "SIGTERM");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function pgbouncerBin(): string | undefined {
  return PGBOUNCER.find(executable);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The newest installed PostgreSQL's bin folder (Debian keeps initdb off the PATH). */
export function postgresBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(path.join(root, v, "bin", "initdb"))) : [];
  const newest = versions.sort((a, b) => Number(a) - Number(b)).pop();
  return newest ? path.join(root, newest, "bin") : undefined;
}

async function ensureProgram(file: string, aptPackage: string, log: (line: string) => void): Promise<void> {
  if (executable(file)) return;
  await aptInstall([aptPackage], file, log);
  if (!executable(file)) throw new Error(`${file} is still missing after apt-get install ${aptPackage}; set CHROMIUM_PATH`);
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function onPath(command: string): Promise<boolean> {
  return run("sh", ["-c", `command -v ${command}`]).then(
    () => true,
    () => false,
  );
}

// `apt-get update`, once per run (however many programs are missing).
let aptUpdated: Promise<void> | undefined;

/** apt-get install as root, or through sudo when it asks for no password; otherwise says what to run. */
export async function aptInstall(packages: string[], what: string, log: (line: string) => void): Promise<void> {
  const sudo =
    process.getuid?.() === 0
      ? []
      : await run("sudo", ["-n", "true"]).then(
          () => ["sudo", "-n"],
          () => null,
        );
  if (!sudo) {
    throw new Error(
      `${what} is missing and this user may not install packages: run \`sudo apt-get install ${packages.join(" ")}\`, then npm test again`,
    );
  }
  log(`Installing ${packages.join(", ")} (${what} is missing)…`);
  const apt = async (...args: string[]) => {
    const [command, ...rest] = [...sudo, "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", ...args];
    await run(command, rest, { maxBuffer: 64 * 1024 * 1024 });
  };
  aptUpdated ??= apt("update", "-qq");
  await aptUpdated;
  await apt("install", "-y", "-qq", ...packages);
}
