"use client";

import dynamic from "next/dynamic";
import styles from "./checkout.module.css";

// wagmi, viem and the wallet code are separate chunks, fetched once the page is in the browser:
// the agent, the prices and the duration and channel choice are there and usable before them.
// The placeholder holds about the room the wallet and payment parts take, so little moves.
export const LazyWalletPayment = dynamic(() => import("./wallet-payment").then((m) => m.WalletPayment), {
  ssr: false,
  loading: () => (
    <div className={styles.walletLoading}>
      <h3>Wallet</h3>
      <p role="status" className="hint">
        Loading the wallet connection…
      </p>
    </div>
  ),
});
