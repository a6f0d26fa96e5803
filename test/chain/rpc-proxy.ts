// A JSON-RPC proxy in front of anvil for the tests of a node that misbehaves: every call is
// forwarded as it came, except broadcasts (eth_sendRawTransaction), which a test's `onBroadcast`
// may refuse, lose (answer the hash without forwarding), hold (no answer at all, e.g. while it
// kills the process that asked) or pass on, before or after doing something else.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Hex, keccak256 } from "viem";

type RpcRequest = { jsonrpc: "2.0"; id: number | string; method: string; params?: unknown[] };
type RpcAnswer = { result: unknown } | { error: { code: number; message: string } };

export type Broadcast = { raw: Hex; hash: Hex };
/** What to answer a broadcast: `forward()` sends it to the node and gives its answer; null answers nothing. */
export type OnBroadcast = (tx: Broadcast, forward: () => Promise<RpcAnswer>) => Promise<RpcAnswer | null> | RpcAnswer | null;

export const pass: OnBroadcast = (_tx, forward) => forward();
export const refuse: OnBroadcast = () => ({ error: { code: -32000, message: "transaction refused by the test proxy" } });
/** The node never gets it, though the sender is told it did. */
export const lose: OnBroadcast = (tx) => ({ result: tx.hash });

export type RpcProxy = {
  url: string;
  /** Every broadcast the proxy saw, in order, whatever it did with it. */
  broadcasts: Broadcast[];
  onBroadcast: OnBroadcast;
  close(): Promise<void>;
};

export async function startRpcProxy(target: string): Promise<RpcProxy> {
  const call = async (request: RpcRequest): Promise<RpcAnswer> => {
    const response = await fetch(target, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(request),
    });
    const { result, error } = (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
    return error ? { error } : { result };
  };
  const proxy: RpcProxy = {
    url: "",
    broadcasts: [],
    onBroadcast: pass,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // the service's kept-alive ones, and any a killed process left
      }),
  };
  const answer = async (request: RpcRequest): Promise<RpcAnswer | null> => {
    if (request.method !== "eth_sendRawTransaction") return call(request);
    const raw = (request.params as [Hex])[0];
    const tx = { raw, hash: keccak256(raw) };
    proxy.broadcasts.push(tx);
    return proxy.onBroadcast(tx, () => call(request));
  };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as RpcRequest | RpcRequest[];
    const requests = Array.isArray(body) ? body : [body];
    const answers = await Promise.all(requests.map(answer));
    if (answers.some((a) => a === null)) return; // held: the asker hears nothing (it is being killed)
    const replies = requests.map((request, i) => ({ jsonrpc: "2.0", id: request.id, ...answers[i] }));
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(Array.isArray(body) ? replies : replies[0]));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
