// The settings `npm start` needs in production, named when missing (scripts/server.ts prints this).
import { describe, expect, it } from "vitest";
import { missingProductionSettings, missingProductionSettingsMessage } from "@/lib/required-production-settings";

const ALL = { APP_URL: "https://rent.example.com", SECRET_BOX_KEYS: "k1:AAAA", CRON_SECRET: "c".repeat(32) };

describe("missingProductionSettings", () => {
  it("is empty when APP_URL, SECRET_BOX_KEYS and CRON_SECRET are set", () => {
    expect(missingProductionSettings(ALL)).toEqual([]);
    expect(missingProductionSettingsMessage(ALL)).toBeNull();
  });

  it("names each missing setting, and says what it is for", () => {
    for (const name of ["APP_URL", "SECRET_BOX_KEYS", "CRON_SECRET"] as const) {
      const settings = { ...ALL, [name]: undefined };
      expect(missingProductionSettings(settings)).toEqual([name]);
      expect(missingProductionSettingsMessage(settings)).toMatch(
        new RegExp(`^npm start refuses to start in production: ${name} is not set\\.\\n  ${name}: `),
      );
    }
    expect(missingProductionSettingsMessage({ APP_URL: undefined, SECRET_BOX_KEYS: undefined, CRON_SECRET: undefined })).toContain(
      "APP_URL, SECRET_BOX_KEYS, CRON_SECRET are not set.",
    );
  });
});
