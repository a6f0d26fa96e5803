// Starts what the browser tests run against, once per Playwright worker (playwright.config.ts):
// a fresh database on the real PostgreSQL with every migration applied, a private anvil chain with
// the test USDC and the escrow deployed, and the production build (`npm run build` first) served by
// `npm start`'s server on a free port. Each worker's tests read where their stack is from the
// E2E_* variables (e2e/stack.ts picks the worker's set out of E2E_STACKS).
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FullConfig } from "@playwright/test";
import { startChatPlatformMock } from "../scripts/chat-platform-mock";
import { ensureLocalChain, owner2, privateKeyOf, renter2 } from "../scripts/deploy-local-chain";
import { freePort } from "../scripts/free-port";
import { tsNodeArgs } from "../scripts/node-args";
import { startAnvil } from "../scripts/start-anvil";
import { createTestDatabase, dropTestDatabase } from "../test/test-database";

async function waitForServer(server: ChildProcess, baseUrl: string, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}):\n${output()}`);
    const up = await fetch(`${baseUrl}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the server did not answer within 60 s:\n${output()}`);
}

export default async function globalSetup(config: FullConfig) {
  if (!existsSync(".next/BUILD_ID"))
    throw new Error("no production build: run `npm run build` before the browser tests (npm run test:e2e does)");
  // A stack per worker, started side by side: the workers' tests never share a database, a chain
  // or a server, so any two files may run at once.
  const started = await Promise.allSettled(Array.from({ length: config.workers }, (_, index) => startStack(index)));
  const stacks = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const stopAll = () => Promise.all(stacks.map((stack) => stack.stop()));
  const failed = started.find((result) => result.status === "rejected");
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  process.env.E2E_STACKS = JSON.stringify(stacks.map((stack) => stack.env));
  return stopAll;
}

type Stack = { env: Record<string, string>; stop: () => Promise<void> };

async function startStack(index: number): Promise<Stack> {
  const dbName = `ars_e2e_${process.pid}_${index}`;
  const databaseUrl = await createTestDatabase(dbName);

  const anvil = await startAnvil();
  // The chat bots' platform APIs (the Telegram and WhatsApp bots are set up; checkout offers them).
  const platforms = await startChatPlatformMock();
  const chainDir = mkdtempSync(path.join(tmpdir(), "ars-e2e-chain-"));
  const chain = await ensureLocalChain(anvil.rpcUrl, path.join(chainDir, "deployment.json"));

  const port = process.env.E2E_PORT ? Number(process.env.E2E_PORT) + index : await freePort();
  const baseUrl = `http://localhost:${port}`;
  const cronSecret = randomBytes(24).toString("base64url");
  const secretBoxKeys = `e2e:${randomBytes(32).toString("base64")}`;
  let output = "";
  const settings: Record<string, string> = {
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    APP_URL: baseUrl,
    DATABASE_URL: databaseUrl,
    // Empty = unset (lib/env.ts): a developer's .env must not point the run at real services.
    UPSTASH_REDIS_REST_URL: "",
    UPSTASH_REDIS_REST_TOKEN: "",
    RESEND_API_KEY: "",
    TRUST_PROXY: "",
    DEV_OUTBOX: "1",
    ALLOW_PRIVATE_WEBHOOKS: "1", // the tests' webhooks listen on 127.0.0.1
    WEBHOOK_TIMEOUT_MS: "5000",
    HEALTH_CHECK_TIMEOUT_MS: "5000",
    CRON_SECRET: cronSecret,
    SECRET_BOX_KEYS: secretBoxKeys,
    CHAIN_ID: String(chain.chainId),
    CHAIN_RPC_URL: chain.rpcUrl,
    USDC_ADDRESS: chain.usdc,
    ESCROW_ADDRESS: chain.escrow,
    ESCROW_START_BLOCK: String(chain.startBlock),
    QUOTE_SIGNER_PRIVATE_KEY: chain.quoteSignerKey,
    OPERATOR_PRIVATE_KEY: chain.operatorKey,
    RENTER_PRIVATE_KEY: "",
    TELEGRAM_BOT_TOKEN: "1000:e2e-telegram-token",
    TELEGRAM_WEBHOOK_SECRET: randomBytes(24).toString("base64url"),
    TELEGRAM_BOT_USERNAME: "agent_rental_e2e_bot",
    TELEGRAM_API_URL: `${platforms.url}/telegram`,
    // The WhatsApp bot too (e2e/whatsapp-checkout.spec.ts): checkout offers it and links to wa.me.
    WHATSAPP_ACCESS_TOKEN: "e2e-whatsapp-access-token",
    WHATSAPP_APP_SECRET: randomBytes(24).toString("hex"),
    WHATSAPP_PHONE_NUMBER_ID: "106540352242922",
    WHATSAPP_VERIFY_TOKEN: randomBytes(16).toString("base64url"),
    WHATSAPP_PHONE_NUMBER: "15550100123",
    WHATSAPP_API_URL: `${platforms.url}/whatsapp`,
  };
  const server = spawn(process.execPath, tsNodeArgs("scripts/server.ts"), {
    env: { ...process.env, ...settings },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  server.stdout!.on("data", keep);
  server.stderr!.on("data", keep);

  const env = {
    E2E_BASE_URL: baseUrl,
    E2E_DATABASE_URL: databaseUrl,
    E2E_RPC_URL: chain.rpcUrl,
    E2E_CHAIN_ID: String(chain.chainId),
    E2E_USDC: chain.usdc,
    E2E_ESCROW: chain.escrow,
    E2E_CRON_SECRET: cronSecret,
    E2E_PLATFORM_MOCK_URL: platforms.url,
    // The operator CLI (e2e/stack.ts) runs with the server's own settings.
    E2E_SERVER_SETTINGS: JSON.stringify(settings),
    // The browser wallets: the renter holds test USDC (ensureLocalChain funds it).
    E2E_RENTER_KEY: chain.renterKey,
    E2E_OWNER_KEY: privateKeyOf(owner2),
    E2E_SECOND_RENTER_KEY: privateKeyOf(renter2),
    // Holds ARBITER_ROLE on the escrow (the dispute console, dispute:resolve).
    E2E_ARBITER_KEY: chain.arbiterKey,
  };

  try {
    await waitForServer(server, baseUrl, () => output);
  } catch (error) {
    server.kill("SIGTERM");
    await Promise.all([anvil.stop(), platforms.close()]);
    rmSync(chainDir, { recursive: true, force: true });
    await dropTestDatabase(dbName);
    throw error;
  }

  const stop = async () => {
    await new Promise<void>((resolve) => {
      if (server.exitCode !== null) return resolve();
      server.once("exit", () => resolve());
      server.kill("SIGTERM");
    });
    await Promise.all([anvil.stop(), platforms.close()]);
    rmSync(chainDir, { recursive: true, force: true });
    await dropTestDatabase(dbName);
    if (process.env.E2E_SERVER_LOG) console.log(`--- the server of stack ${index}\n${output}`);
  };
  return { env, stop };
}
