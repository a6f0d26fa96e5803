-- When a connect whose test passed handed the listing's webhook signing secret out: until then
-- every connect (dashboard Test connection, owner API connect) shows it again, so an owner whose
-- first test failed need not rotate it once the webhook works (docs/decisions.md).
ALTER TABLE "agents" ADD COLUMN "signing_secret_delivered_at" TIMESTAMPTZ(3);

-- A listing with a secret and a connect that passed has had it delivered; one whose connects all
-- failed shows it again on its next connect.
UPDATE "agents" a SET "signing_secret_delivered_at" = (
  SELECT max(h."created_at") FROM "health_checks" h WHERE h."agent_id" = a."id" AND h."trigger" = 'connect' AND h."ok"
)
 WHERE a."webhook_signing_secret_cipher" IS NOT NULL;
