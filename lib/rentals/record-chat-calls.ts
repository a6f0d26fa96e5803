import "server-only";
import { db } from "@/lib/db";
import type { Channel } from "@/lib/generated/prisma/enums";

export type ChatCallRow = {
  // The rental the call was made under, or the payment of an answer sold per message.
  rentalId: string | null;
  messagePaymentId: string | null;
  agentId: string;
  statusCode: number;
  webhookStatus: number | null;
  latencyMs: number;
  requestBytes: number;
  responseBytes: number;
  channel: Channel;
  error: string | null;
  createdAt: Date;
};

// Calls recorded within this many ms of each other share one INSERT: a statement costs Prisma
// about 0.3 ms of CPU, several times the row's own cost, on the path every chat takes.
const GATHER_MS = 20;

type Waiting = { row: ChatCallRow; settle: (error?: unknown) => void };
let waiting: Waiting[] = [];
let scheduled = false;

/**
 * Records one call (never its text) in the next batch; settles once that batch is written, or
 * rejects if it could not be. A call whose rental (or payment) is gone by then (deleted) is left
 * out, so it cannot cost the others their record.
 */
export function recordChatCall(row: ChatCallRow): Promise<void> {
  return new Promise((resolve, reject) => {
    waiting.push({ row, settle: (error) => (error === undefined ? resolve() : reject(error)) });
    if (scheduled) return;
    scheduled = true;
    setTimeout(writeWaiting, GATHER_MS);
  });
}

async function writeWaiting(): Promise<void> {
  const batch = waiting;
  waiting = [];
  scheduled = false;
  const rows = batch.map((w) => w.row);
  const column = <K extends keyof ChatCallRow>(key: K) => rows.map((row) => row[key]);
  try {
    await db.$executeRaw`
      INSERT INTO chat_calls (rental_id, message_payment_id, agent_id, status_code, webhook_status, latency_ms, request_bytes, response_bytes, channel, error, created_at)
      SELECT c.rental_id, c.message_payment_id, c.agent_id, c.status_code, c.webhook_status, c.latency_ms, c.request_bytes, c.response_bytes, c.channel::"Channel", c.error, c.created_at
      FROM unnest(
        ${column("rentalId")}::uuid[], ${column("messagePaymentId")}::uuid[], ${column("agentId")}::uuid[], ${column("statusCode")}::int[], ${column("webhookStatus")}::int[],
        ${column("latencyMs")}::int[], ${column("requestBytes")}::int[], ${column("responseBytes")}::int[], ${column("channel")}::text[],
        ${column("error")}::text[], ${column("createdAt")}::timestamptz[]
      ) AS c (rental_id, message_payment_id, agent_id, status_code, webhook_status, latency_ms, request_bytes, response_bytes, channel, error, created_at)
      WHERE EXISTS (SELECT 1 FROM rentals r WHERE r.id = c.rental_id)
         OR EXISTS (SELECT 1 FROM message_payments p WHERE p.id = c.message_payment_id)`;
    for (const w of batch) w.settle();
  } catch (error) {
    for (const w of batch) w.settle(error ?? new Error("the chat calls could not be recorded"));
  }
}
