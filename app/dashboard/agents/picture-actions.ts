"use server";
// A listing's picture, on the actions' wrapper (lib/actions/action.ts): the file is checked by its
// bytes (PNG, JPEG or WebP, at most 256 KiB) in lib/avatars/, then stored for the marketplace.
import { action } from "@/lib/actions/action";
import type { FormState } from "@/lib/actions/form-errors";
import { removeAgentAvatar, setAgentAvatar } from "@/lib/avatars/set-agent-avatar";
import { ApiError } from "@/lib/http/api-error";

const pages = (agentId: string): [string, "layout"][] => [
  [`/dashboard/agents/${agentId}`, "layout"],
  ["/", "layout"],
];

export const uploadPictureAction = action(
  { what: "save the picture", revalidate: pages },
  async ({ account, form }, agentId: string): Promise<FormState> => {
    const file = form.get("picture");
    if (!(file instanceof File) || file.size === 0) throw new ApiError(400, "Choose an image file first.");
    await setAgentAvatar(account.id, agentId, new Uint8Array(await file.arrayBuffer()));
    return { ok: true, message: "Saved. The marketplace shows the new picture now." };
  },
);

export const removePictureAction = action(
  { what: "remove the picture", revalidate: pages },
  async ({ account }, agentId: string): Promise<FormState> => {
    await removeAgentAvatar(account.id, agentId);
    return { ok: true, message: "Removed. The listing shows its drawn picture again." };
  },
);
