import "server-only";
import { findOwnerAgent } from "@/lib/agents/find-owner-agent";
import { type AvatarStore, databaseAvatarStore } from "@/lib/avatars/avatar-store";
import { checkAvatarImage } from "@/lib/avatars/check-avatar-image";

/** Stores an owner's picture for one of their listings (404 for another account's), after checking its bytes. */
export async function setAgentAvatar(ownerId: string, agentId: string, data: Uint8Array, store: AvatarStore = databaseAvatarStore) {
  const agent = await findOwnerAgent(ownerId, agentId);
  const contentType = checkAvatarImage(data);
  return store.put(agent.id, { contentType, data });
}

/** Back to the drawn picture. */
export async function removeAgentAvatar(ownerId: string, agentId: string, store: AvatarStore = databaseAvatarStore) {
  const agent = await findOwnerAgent(ownerId, agentId);
  await store.remove(agent.id);
}
