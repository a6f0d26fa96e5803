import { defineConfig } from "prisma/config";

// The Prisma CLI is used only for `prisma generate` here (its schema engine cannot be
// downloaded on every machine); migrations are applied by scripts/migrate.ts. Generating needs
// no database, so the URL may be absent. The CLI's own migration commands (`prisma migrate
// deploy` where its engine can be downloaded) take DATABASE_DIRECT_URL first, as
// scripts/migrate.ts does: behind a transaction pooler they need the server itself.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_DIRECT_URL || process.env.DATABASE_URL || "postgresql://localhost/unused" },
});
