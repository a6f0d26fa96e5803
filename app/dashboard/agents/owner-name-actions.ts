"use server";
// The owner's public name, on the actions' wrapper (lib/actions/action.ts). It shows on every
// listing's tile and page, so the marketplace is revalidated too.
import { setDisplayName } from "@/lib/accounts/set-display-name";
import { action } from "@/lib/actions/action";
import type { FormState } from "@/lib/actions/form-errors";
import { displayNameSchema } from "@/lib/schemas/display-name";

export const saveDisplayNameAction = action(
  { input: displayNameSchema, what: "save your name", revalidate: ["/dashboard/agents", ["/", "layout"]] },
  async ({ account, input }): Promise<FormState> => {
    await setDisplayName(account.id, input.displayName);
    return {
      ok: true,
      message: input.displayName
        ? `Saved. Your listings now show "by ${input.displayName}".`
        : "Removed. Your listings now say they are by an independent owner.",
    };
  },
);
