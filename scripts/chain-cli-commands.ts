// The operators' chain command (docs/operations.md#what-to-monitor): the database against the
// escrow, and the repair.

import { z } from "zod";
import { reconcileEscrow } from "@/lib/chain/reconcile-escrow";
import type { Flags } from "./cli-commands";

type Command = { usage: string; run(flags: Flags): Promise<unknown> };

export const chainCommands: Record<string, Command> = {
  "chain:reconcile": {
    usage:
      "chain:reconcile [--fix]   (every open rental against the escrow, the escrow's money and the operator's nonces; --fix repairs the rentals that differ)",
    async run(flags) {
      const input = z
        .object({ fix: z.literal("true", { error: "takes no value: write --fix alone" }).optional() })
        .strict()
        .parse(flags);
      return reconcileEscrow({ fix: input.fix === "true" });
    },
  },
};
