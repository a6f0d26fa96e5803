import "server-only";
import { createHash } from "node:crypto";
import { db } from "@/lib/db";

export type StoredAvatar = { contentType: string; data: Uint8Array; version: string };

/**
 * Where agents' pictures live. One implementation today (rows in PostgreSQL, fine at 256 KiB
 * each); an object-storage one (S3, Vercel Blob) would implement the same three calls.
 */
export type AvatarStore = {
  get(agentId: string): Promise<StoredAvatar | null>;
  put(agentId: string, image: { contentType: string; data: Uint8Array }): Promise<StoredAvatar>;
  remove(agentId: string): Promise<void>;
};

export const avatarVersion = (data: Uint8Array) => createHash("sha256").update(data).digest("hex").slice(0, 16);

export const databaseAvatarStore: AvatarStore = {
  async get(agentId) {
    return db.agentAvatar.findUnique({ where: { agentId }, select: { contentType: true, data: true, version: true } });
  },
  async put(agentId, { contentType, data }) {
    const version = avatarVersion(data);
    const bytes = Uint8Array.from(data);
    await db.agentAvatar.upsert({
      where: { agentId },
      create: { agentId, contentType, data: bytes, version },
      update: { contentType, data: bytes, version },
    });
    return { contentType, data, version };
  },
  async remove(agentId) {
    await db.agentAvatar.deleteMany({ where: { agentId } });
  },
};
