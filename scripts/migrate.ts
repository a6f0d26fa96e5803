// `npm run db:migrate`: applies pending migrations (see apply-migrations.ts) to DATABASE_DIRECT_URL
// when it is set, else to DATABASE_URL. Behind a transaction pooler (PgBouncer, a provider's
// pooled endpoint) DATABASE_URL names the pooler and DATABASE_DIRECT_URL the server itself:
// migrations (long DDL) go to the server directly (docs/deployment.md, "Behind a pooler").
// No top-level await: without "type": "module", tsx compiles .ts files to CommonJS.
import { applyMigrations } from "./apply-migrations";

// An empty value (`NAME=` in .env) means "not set", as in lib/env.ts.
const databaseUrl = process.env.DATABASE_DIRECT_URL || process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error(
    "DATABASE_URL is not set: export it (postgresql://…), or DATABASE_DIRECT_URL behind a pooler, and run `npm run db:migrate` again.",
  );
  process.exit(1);
}

applyMigrations(databaseUrl, (line) => console.log(line)).catch((error: unknown) => {
  // pg's messages never contain the connection string, so this cannot print the password.
  console.error(`Migration failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
