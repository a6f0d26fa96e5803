import { defineConfig } from "prisma/config";

// The Prisma CLI is used only for `prisma generate` here (its schema engine cannot be
// downloaded on every machine); migrations are applied by scripts/migrate.ts. Generating needs
// no database, so the URL may be absent.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost/unused" },
});
