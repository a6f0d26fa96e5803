// The operators' chain command (docs/operations.md#what-to-monitor): the database against the
// escrow, and the repair. The chain client is loaded when the command runs, not when the CLI
// starts (scripts/cli-commands.ts).

import { z } from "zod";
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
      const { reconcileEscrow } = await import("@/lib/chain/reconcile-escrow");
      return reconcileEscrow({ fix: input.fix === "true" });
    },
  },
};
