-- Standard Webhooks: each agent's signing secret (whsec_…), AES-256-GCM like the URL and token.
-- Null for listings connected before signatures existed: they get one when the webhook is
-- connected again or the secret is rotated.
ALTER TABLE "agents" ADD COLUMN "webhook_signing_secret_cipher" TEXT;
