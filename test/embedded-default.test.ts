// Smoke test of the embedded default: `npm run dev` with no database, Redis or chain configured
// starts PGlite, anvil with the escrow, the app and the demo, the printed rental code works with
// the printed curl paths, and the demo rental is paid into the printed escrow.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import path from "node:path";
import { type Address, createPublicClient, erc20Abi, http } from "viem";
import { afterAll, describe, expect, it } from "vitest";
import { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";
import { freePort } from "../scripts/free-port";

let child: ChildProcess | undefined;
const dataDir = mkdtempSync(path.join(tmpdir(), "ars-embedded-"));

afterAll(async () => {
  if (child?.pid) {
    const group = -child.pid;
    const exited = child.exitCode !== null || child.signalCode !== null;
    try {
      process.kill(group, "SIGTERM");
    } catch {
      // the whole group has already gone
    }
    if (!exited) await new Promise((resolve) => child!.once("exit", resolve));
    // Let every process of the group finish (anvil writes its state file as it exits).
    for (let i = 0; i < 100; i++) {
      try {
        process.kill(group, 0);
      } catch {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(`${dataDir}-chain`, { recursive: true, force: true }); // the chain's state, beside it
});

describe("npm run dev (embedded default)", () => {
  it("serves the demo rental over /api/v1 and /v1 with no services configured", async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      EMBEDDED_DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await freePort()),
      EMBEDDED_CHAIN_PORT: String(await freePort()),
    };
    const configured = ["DATABASE_URL", "UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN", "NODE_ENV", "VITEST", "WEBHOOK_TIMEOUT_MS"];
    const channelSettings = ["TELEGRAM_BOT_TOKEN", "TELEGRAM_WEBHOOK_SECRET", "TELEGRAM_BOT_USERNAME", "TELEGRAM_API_URL"];
    const chainSettings = [
      "CHAIN_ID",
      "CHAIN_RPC_URL",
      "USDC_ADDRESS",
      "ESCROW_ADDRESS",
      "QUOTE_SIGNER_PRIVATE_KEY",
      "OPERATOR_PRIVATE_KEY",
      "RENTER_PRIVATE_KEY",
      "CHAIN_CONFIRMATIONS",
      "ESCROW_START_BLOCK",
    ];
    for (const name of [...configured, ...chainSettings, ...channelSettings]) delete env[name];
    child = spawn("npm", ["run", "dev", "--silent"], { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stderr!.on("data", (c) => (output += c));
    const code = await new Promise<string>((resolve, reject) => {
      child!.stdout!.on("data", (chunk: Buffer) => {
        output += chunk;
        const match = /DEMO_RENTAL_CODE=([0-9a-f]{8})/.exec(output);
        if (match) resolve(match[1]);
      });
      child!.once("exit", (c) => reject(new Error(`npm run dev exited (${c}):\n${output}`)));
    });
    const ownerKey = /(rck_[0-9A-Za-z]+)/.exec(output)![1];
    expect(output).toContain(`curl -s http://localhost:${port}/api/v1/status -H "X-API-Key: ${code}"`);

    const base = `http://127.0.0.1:${port}`;
    const status = await fetch(`${base}/api/v1/status`, { headers: { "X-API-Key": code } });
    expect(status.status).toBe(200);
    const body = await status.json();
    expect(body.rental.status).toBe("active");
    expect(body.agent.name).toBe("Echo Agent");

    // The demo rental was paid into the printed escrow on the printed chain, by the demo renter,
    // and its times are the chain's.
    const printed = (label: string) => new RegExp(`^ ${label} +(\\S+)`, "m").exec(output)?.[1];
    const rpcUrl = printed("Chain")!;
    const escrow = printed("Escrow") as Address;
    const usdc = printed("Test USDC") as Address;
    const renter = printed("Demo renter") as Address;
    expect(rpcUrl).toBe(`http://127.0.0.1:${env.EMBEDDED_CHAIN_PORT}`);
    const chain = createPublicClient({ transport: http(rpcUrl) });
    // The escrow knows the rental by a random id: find its payment among the escrow's events.
    const created = await chain.getContractEvents({
      address: escrow,
      abi: escrowAbi,
      eventName: "RentalCreated",
      fromBlock: 0n,
      strict: true,
    });
    const payment = created.find((event) => new Date(Number(event.args.endsAt) * 1000).toISOString() === body.rental.ends_at);
    expect(payment?.args.id).not.toContain(code);
    const [onChainRenter, , endsAt, onChainStatus, , price, fee] = await chain.readContract({
      address: escrow,
      abi: escrowAbi,
      functionName: "rentals",
      args: [payment!.args.id],
    });
    expect(onChainStatus).toBe(1); // Active
    expect(onChainRenter).toBe(renter);
    expect(new Date(endsAt * 1000).toISOString()).toBe(body.rental.ends_at);
    expect(price + BigInt(fee)).toBe(51_000_000n); // 50 USDC a month + the 1 USDC fee
    const held = await chain.readContract({ address: usdc, abi: erc20Abi, functionName: "balanceOf", args: [escrow] });
    expect(held).toBeGreaterThanOrEqual(51_000_000n);

    const chat = await fetch(`${base}/api/v1/chat`, {
      method: "POST",
      headers: { "X-API-Key": code, "Content-Type": "application/json" },
      body: JSON.stringify({ message: "Hello, agent!" }),
    });
    expect(chat.status).toBe(200);
    expect((await chat.json()).response).toBe("Echo: Hello, agent!");

    // The bots run against the local platform mock: /dev/channels sends as a Telegram user
    // through the real, verified route, and the bot's answer shows up on the page.
    expect(output).toContain(`http://localhost:${port}/dev/channels`);
    const sent = await fetch(`${base}/api/dev/channels`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ platform: "Telegram", user: "1001", text: "/help" }),
      redirect: "manual",
    });
    expect(sent.status).toBe(303);
    await expect
      .poll(async () => (await fetch(`${base}/dev/channels?platform=Telegram&user=1001`)).text(), { timeout: 120_000 })
      .toContain("This bot connects you to an AI agent");

    // The same surface without the /api prefix, for an API host of its own.
    const bare = await fetch(`${base}/v1/status`, { headers: { Authorization: `Bearer ${code}` } });
    expect(bare.status).toBe(200);
    expect(bare.headers.get("access-control-allow-origin")).toBe("*");

    // The printed owner key works on the owner surface, also without the /api prefix.
    const agents = await fetch(`${base}/public/agents`, { headers: { Authorization: `Bearer ${ownerKey}` } });
    expect(agents.status).toBe(200);
    const { agents: list } = await agents.json();
    expect(list.map((a: { name: string }) => a.name)).toContain("Echo Agent");

    // The server keys limits on the socket address: a forged X-Forwarded-For buys nothing. Every
    // request names another client; were the header trusted, none would ever be limited. The
    // bucket refills one token a second, so it empties as long as a request takes under a second,
    // however slow the machine (no bound on where exactly).
    let limitedAt = 0;
    for (let i = 1; i <= 250 && !limitedAt; i++) {
      const res = await fetch(`${base}/api/v1/status`, {
        headers: { "X-API-Key": code, "X-Forwarded-For": `203.0.113.${i}` },
      });
      if (res.status === 429) limitedAt = i;
    }
    expect(limitedAt).toBeGreaterThan(0);

    // It listens on this machine only (it serves /dev/outbox, where sign-in links are): not on
    // IPv6 loopback, not on any of the machine's network addresses.
    expect(await tcpConnects("127.0.0.1", port)).toBe(true);
    const elsewhere = [
      "::1",
      ...Object.values(networkInterfaces())
        .flat()
        .filter((i) => i && !i.internal)
        .map((i) => i!.address),
    ];
    for (const address of elsewhere) expect(await tcpConnects(address, port), address).toBe(false);

    // Pages carry a Content-Security-Policy whose nonce Next.js put on every script of the page.
    const page = await fetch(`${base}/`);
    const policy = page.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy)?.[1];
    expect(nonce, policy).toBeTruthy();
    expect(policy).toContain("frame-ancestors 'none'");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    const scripts = (await page.text()).match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  }, 300_000);
});

function tcpConnects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 5_000 });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}
