// Settings `npm start` refuses to run without in production. Without them the server would boot and
// fail at first use (a 500 on the first webhook connect, sign-in link or cron run), so it stops at
// once instead, naming what is missing. No "server-only": scripts/server.ts imports this outside
// Next.js.
import { type Env, env } from "@/lib/env";

const WHY: Record<RequiredSetting, string> = {
  APP_URL: "the public URL: links in e-mails and the domain wallet sign-in messages must name",
  SECRET_BOX_KEYS: "the keyring that encrypts webhook URLs and tokens at rest",
  CRON_SECRET: "the secret Vercel Cron (or your scheduler) sends to /api/cron/*, 16+ characters",
};

export type RequiredSetting = "APP_URL" | "SECRET_BOX_KEYS" | "CRON_SECRET";
export const REQUIRED_IN_PRODUCTION = Object.keys(WHY) as RequiredSetting[];

/** The required settings that are not set (an empty value counts as not set, as in lib/env.ts). */
export function missingProductionSettings(settings: Pick<Env, RequiredSetting> = env): RequiredSetting[] {
  return REQUIRED_IN_PRODUCTION.filter((name) => !settings[name]);
}

/** The message `npm start` prints before it exits; null when nothing is missing. */
export function missingProductionSettingsMessage(settings: Pick<Env, RequiredSetting> = env): string | null {
  const missing = missingProductionSettings(settings);
  if (missing.length === 0) return null;
  return [
    `npm start refuses to start in production: ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} not set.`,
    ...missing.map((name) => `  ${name}: ${WHY[name]}`),
    "Set them in the environment or .env (see .env.example and docs/deployment.md).",
  ].join("\n");
}
