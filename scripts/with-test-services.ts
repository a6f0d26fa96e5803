// `npm test`: runs its command (the suites, a shell command line) once the services of
// scripts/test-services.ts answer (the PgBouncer's URL in PGBOUNCER_URL), then stops what was started for it, however the command ends:
// its own exit, a failure, or Ctrl-C (which the terminal sends to the command too: this process
// waits for it to finish before stopping the services it still uses).
import { spawn } from "node:child_process";
import { type StartedService, startTestServices, stopServices } from "./test-services";

const commandLine = process.argv.slice(2).join(" ");
if (!commandLine) {
  console.error("usage: node --import tsx scripts/with-test-services.ts <command line>");
  process.exit(2);
}

let signalled: NodeJS.Signals | undefined;
let child: ReturnType<typeof spawn> | undefined;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    signalled = signal;
    // A terminal's Ctrl-C reaches the command itself; a SIGTERM sent to this process alone must be passed on.
    if (signal === "SIGTERM") child?.kill(signal);
  });
}

let started: StartedService[] = [];
let code: number;
try {
  const services = await startTestServices({ chromiumPath: process.env.CHROMIUM_PATH, log: (line) => console.log(`[npm test] ${line}`) });
  started = services.started;
  for (const service of started) console.log(`[npm test] started ${service.name}; it is stopped when the tests end`);
  // The pooler pass (vitest.pooler.config.ts) and the three-server browser test go through it.
  process.env.PGBOUNCER_URL = services.pgbouncer.url;
  code = signalled ? 130 : await runCommand(commandLine);
} catch (error) {
  console.error(`[npm test] ${error instanceof Error ? error.message : String(error)}`);
  code = 1;
}
await stopServices(started);
process.exit(code);

function runCommand(line: string): Promise<number> {
  child = spawn("sh", ["-c", line], { stdio: "inherit" });
  return new Promise((resolve) => {
    child!.once("exit", (exitCode, signal) => resolve(exitCode ?? 128 + (signal === "SIGINT" ? 2 : 15)));
  });
}
