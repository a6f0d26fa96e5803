import { existsSync } from "node:fs";

// Scripts read the same .env file Next.js reads (values already in the environment win).
for (const file of [".env.local", ".env"]) {
  if (existsSync(file)) process.loadEnvFile(file);
}
