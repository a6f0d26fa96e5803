-- CreateTable
CREATE TABLE "agent_avatars" (
    "agent_id" UUID NOT NULL,
    "content_type" TEXT NOT NULL,
    "data" BYTEA NOT NULL,
    "version" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_avatars_pkey" PRIMARY KEY ("agent_id")
);

-- AddForeignKey
ALTER TABLE "agent_avatars" ADD CONSTRAINT "agent_avatars_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
