import "server-only";
import { db } from "@/lib/db";
import type { Channel, DurationType, RentalStatus } from "@/lib/generated/prisma/enums";
import { uuidRangeForPrefix } from "@/lib/rentals/parse-rental-code";

export type RentalWithAgent = {
  id: string;
  // What the owner knows the rental by (X-Rental-Ref): never the id, whose prefix is the code.
  ref: string;
  agentId: string;
  renterId: string | null;
  sessionKey: string;
  status: Exclude<RentalStatus, "pending">;
  durationType: DurationType;
  channel: Channel;
  startsAt: Date;
  endsAt: Date;
  // A free trial (docs/trials.md) and its messages left as read (a second stale at most through
  // the lookup cache; the chat path spends them in the database, /v1/status reads them afresh).
  // Absent: a paid rental.
  trial?: boolean;
  trialMessagesLeft?: number | null;
  agent: {
    id: string;
    name: string;
    description: string;
    webhookUrlCipher: string | null;
    webhookTokenCipher: string | null;
    webhookSigningSecretCipher: string | null;
  };
};

export type RentalLookup = { kind: "found"; rental: RentalWithAgent } | { kind: "none" } | { kind: "ambiguous" };

type Row = Omit<RentalWithAgent, "agent"> & {
  agentName: string;
  agentDescription: string;
  webhookUrlCipher: string | null;
  webhookTokenCipher: string | null;
  webhookSigningSecretCipher: string | null;
};

// Looks a rental up by a normalised hex prefix: one range scan on the primary key (no extra
// column), LIMIT 2 so an ambiguous prefix is detected without reading more. Every /v1 request
// runs this, so it is one joined SQL statement: Prisma's `include` costs a second query and
// twice the CPU. Rentals awaiting payment are invisible to the renter surface.
export async function findRentalByCode(hexPrefix: string): Promise<RentalLookup> {
  const [low, high] = uuidRangeForPrefix(hexPrefix);
  const rows = await db.$queryRaw<Row[]>`
    SELECT r.id::text AS "id", r.ref, r.agent_id::text AS "agentId", r.renter_id::text AS "renterId", r.session_key AS "sessionKey",
           r.status::text AS "status", r.duration_type::text AS "durationType", r.channel::text AS "channel",
           r.starts_at AS "startsAt", r.ends_at AS "endsAt", r.trial, r.trial_messages_left AS "trialMessagesLeft",
           a.name AS "agentName", a.description AS "agentDescription",
           a.webhook_url_cipher AS "webhookUrlCipher", a.webhook_token_cipher AS "webhookTokenCipher",
           a.webhook_signing_secret_cipher AS "webhookSigningSecretCipher"
    FROM rentals r JOIN agents a ON a.id = r.agent_id
    WHERE r.id BETWEEN ${low}::uuid AND ${high}::uuid AND r.status <> 'pending'
    LIMIT 2`;
  if (rows.length === 0) return { kind: "none" };
  if (rows.length > 1) return { kind: "ambiguous" };
  const { agentName, agentDescription, webhookUrlCipher, webhookTokenCipher, webhookSigningSecretCipher, ...rental } = rows[0];
  return {
    kind: "found",
    rental: {
      ...rental,
      agent: {
        id: rental.agentId,
        name: agentName,
        description: agentDescription,
        webhookUrlCipher,
        webhookTokenCipher,
        webhookSigningSecretCipher,
      },
    },
  };
}
