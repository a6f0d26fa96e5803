// What the fuzz knows of a route: how Next.js calls it, what it serves, which credentials and
// bodies to try; and the arbitraries most routes share.
import fc from "fast-check";
import { type Body, bodyOf, type Credential, type Method } from "./fuzz-cases";
import { ORIGIN, type World } from "./fuzz-world";

export type Module = Partial<
  Record<Method, (req: Request, ctx: { params: Promise<Record<string, unknown>> }) => Response | Promise<Response>>
>;
export type Route = {
  path: string;
  mod: unknown;
  serves: Method[];
  credential: fc.Arbitrary<Credential>;
  body: fc.Arbitrary<Body>;
  /** Owner routes: which key pool, and whether the path has an agent id. */
  pool?: keyof World["owners"];
  dynamicId?: boolean;
  /** The dynamic segment's name in the path and params ("id" unless told: "[agentId]"). */
  idParam?: string;
  /** Headers this route needs to be reached at all (e.g. Sec-Fetch-Site on the e-mail callback). */
  headers?: fc.Arbitrary<[string, string][]>;
  /** Routes that answer in another protocol's shapes: OpenAI's errors and streams, MCP's and A2A's JSON-RPC. */
  dialect?: "openai" | "jsonrpc";
};

export const noBody = bodyOf(fc.jsonValue({ maxDepth: 2 }));
export const sameOrigin = fc.oneof(
  { weight: 4, arbitrary: fc.constant<[string, string][]>([["sec-fetch-site", "same-origin"]]) },
  { weight: 1, arbitrary: fc.constant<[string, string][]>([["origin", ORIGIN]]) },
  { weight: 1, arbitrary: fc.constant<[string, string][]>([]) },
);
