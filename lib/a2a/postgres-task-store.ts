import "server-only";
import { Task } from "@a2a-js/sdk";
import { UnsupportedOperationError } from "@a2a-js/sdk/errors";
import type { TaskStore } from "@a2a-js/sdk/server";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

/** A task is readable by the rental that made it for this long after its last change. */
export const A2A_TASK_TTL_MS = 24 * 60 * 60 * 1000;
// Expired rows deleted with each save: a few at a time keeps every save cheap, and the table
// shrinks as long as tasks are made (one row per message: at most 60 a minute per client).
const PRUNE_BATCH = 20;

/**
 * The A2A SDK's task store, in PostgreSQL (a2a_tasks), scoped to one rental: serverless instances
 * share nothing in memory, and a task is the rental's own. A task of another rental, or one past
 * its 24 hours, is not found (the SDK answers TaskNotFoundError). Tasks are stored in the
 * protocol's JSON form (Task.toJSON) and read back with Task.fromJSON.
 */
export class PostgresTaskStore implements TaskStore {
  constructor(
    private readonly rentalId: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async save(task: Task): Promise<void> {
    const now = this.clock();
    const json = Task.toJSON(task) as Prisma.InputJsonValue;
    const expiresAt = new Date(now.getTime() + A2A_TASK_TTL_MS);
    // The id is the SDK's; a task id of another rental is never overwritten (WHERE on the upsert).
    await db.$executeRaw`
      INSERT INTO a2a_tasks (id, rental_id, task, expires_at, updated_at)
      VALUES (${task.id}, ${this.rentalId}::uuid, ${json}::jsonb, ${expiresAt}, ${now})
      ON CONFLICT (id) DO UPDATE SET task = EXCLUDED.task, expires_at = EXCLUDED.expires_at, updated_at = EXCLUDED.updated_at
      WHERE a2a_tasks.rental_id = EXCLUDED.rental_id`;
    await db.$executeRaw`
      DELETE FROM a2a_tasks WHERE id IN (
        SELECT id FROM a2a_tasks WHERE expires_at <= ${now} ORDER BY expires_at LIMIT ${PRUNE_BATCH} FOR UPDATE SKIP LOCKED)`;
  }

  async load(taskId: string): Promise<Task | undefined> {
    const rows = await db.$queryRaw<{ task: unknown }[]>`
      SELECT task FROM a2a_tasks WHERE id = ${taskId} AND rental_id = ${this.rentalId}::uuid AND expires_at > ${this.clock()}`;
    return rows.length === 0 ? undefined : Task.fromJSON(rows[0].task as Parameters<typeof Task.fromJSON>[0]);
  }

  async list(): Promise<never> {
    throw new UnsupportedOperationError("Listing tasks is not supported here: read a task by its id (GetTask, tasks/get).");
  }
}
