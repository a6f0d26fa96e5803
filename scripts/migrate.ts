// `npm run db:migrate`: applies pending migrations to DATABASE_URL (see apply-migrations.ts).
// No top-level await: without "type": "module", tsx compiles .ts files to CommonJS.
import { applyMigrations } from "./apply-migrations";

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error("DATABASE_URL is not set: export it (postgresql://…) and run `npm run db:migrate` again.");
  process.exit(1);
}

applyMigrations(databaseUrl, (line) => console.log(line)).catch((error: unknown) => {
  // pg's messages never contain the connection string, so this cannot print the password.
  console.error(`Migration failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
