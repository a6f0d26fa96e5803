"use client";

import { useState } from "react";
import type { Address } from "viem";
import type { EscrowChain } from "@/lib/chain/escrow-chain";
import { shortHex } from "@/lib/chain/short-hex";
import styles from "../../dashboard.module.css";
import { WithdrawStepper } from "./withdraw-stepper";

type Line = { address: Address; micro: string };

/**
 * A Withdraw stepper for each address that held a credit when the page loaded. The set is kept
 * across the refresh a withdrawal triggers, so the finished stepper still says what happened
 * while the figures above update.
 */
export function WithdrawCredits({ chain, lines }: { chain: EscrowChain; lines: Line[] }) {
  const [shown] = useState(() => lines.filter((line) => BigInt(line.micro) > 0n));
  return shown.map((line) => (
    <div key={line.address} className={styles.withdraw}>
      <h3>Withdraw the credit of {shortHex(line.address)}</h3>
      <WithdrawStepper chain={chain} holder={line.address} creditMicro={line.micro} />
    </div>
  ));
}
