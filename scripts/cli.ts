// Operator CLI: `npm run cli -- <command> [--flag value | --flag=value …]`. Prints JSON on stdout;
// on bad input prints the reason on stderr and exits non-zero. See docs/cli.md.
import "./load-env";
import { z } from "zod";
import { parseFlags, runCli } from "./cli-commands";

const [command, ...rest] = process.argv.slice(2);

try {
  const result = await runCli(command, parseFlags(rest));
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  process.exit(0);
} catch (error) {
  const message =
    error instanceof z.ZodError
      ? error.issues.map((i) => `--${String(i.path[0] ?? "input")}: ${i.message}`).join("; ")
      : error instanceof Error
        ? error.message
        : String(error);
  process.stderr.write(`error: ${message}\n`);
  process.exit(2);
}
