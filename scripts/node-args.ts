// How the project starts a TypeScript script in a Node process of its own: `node --import tsx`,
// not the `tsx` command, which is a Node process that starts a second one for the script (about a
// CPU-second more for every CLI command, `npm run dev` server and test spawn).
import path from "node:path";
import { pathToFileURL } from "node:url";

const TSX_LOADER = pathToFileURL(path.resolve(import.meta.dirname, "../node_modules/tsx/dist/loader.mjs")).href;

/** The arguments for `process.execPath` that run `script` (then `args`) as TypeScript. The operator
 * CLI and scripts/dev.ts load server-only modules outside Next.js: they need `reactServer`. */
export function tsNodeArgs(script: string, args: string[] = [], { reactServer = false } = {}): string[] {
  return ["--import", TSX_LOADER, ...(reactServer ? ["--conditions=react-server"] : []), script, ...args];
}
