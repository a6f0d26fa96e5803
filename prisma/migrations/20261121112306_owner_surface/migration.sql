-- AlterTable
ALTER TABLE "agents" ADD COLUMN     "last_health_check_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "health_checks" (
    "id" BIGSERIAL NOT NULL,
    "agent_id" UUID NOT NULL,
    "ok" BOOLEAN NOT NULL,
    "status_code" INTEGER,
    "error" TEXT,
    "latency_ms" INTEGER NOT NULL,
    "trigger" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "health_checks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ratings" (
    "id" UUID NOT NULL,
    "rental_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "score" INTEGER NOT NULL,
    "comment" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ratings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "emails" (
    "id" UUID NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "html" TEXT NOT NULL,
    "transport" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "provider_id" TEXT,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "emails_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "health_checks_agent_id_created_at_idx" ON "health_checks"("agent_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "ratings_rental_id_key" ON "ratings"("rental_id");

-- CreateIndex
CREATE INDEX "ratings_agent_id_idx" ON "ratings"("agent_id");

-- CreateIndex
CREATE UNIQUE INDEX "emails_idempotency_key_key" ON "emails"("idempotency_key");

-- CreateIndex
CREATE INDEX "emails_created_at_idx" ON "emails"("created_at");

-- AddForeignKey
ALTER TABLE "health_checks" ADD CONSTRAINT "health_checks_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_rental_id_fkey" FOREIGN KEY ("rental_id") REFERENCES "rentals"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

