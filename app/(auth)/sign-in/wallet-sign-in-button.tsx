"use client";

import dynamic from "next/dynamic";
import { useState } from "react";

// viem and the wallet code are a separate chunk, fetched when the button is first pressed, so
// the sign-in page itself stays small for people who use e-mail.
const WalletSignIn = dynamic(() => import("./wallet-sign-in").then((m) => m.WalletSignIn), {
  ssr: false,
  loading: () => (
    <button type="button" className="button button-primary" disabled aria-busy="true">
      Loading wallet sign-in…
    </button>
  ),
});

// chainId: the chain the server binds sessions to (CHAIN_ID), written into the message; null = the
// wallet's current chain. destination: the page to open once signed in (checked by the server page).
export function WalletSignInButton({ chainId, destination }: { chainId: number | null; destination: string }) {
  const [started, setStarted] = useState(false);
  if (started) return <WalletSignIn autoStart chainId={chainId} destination={destination} />;
  return (
    <button type="button" className="button button-primary" onClick={() => setStarted(true)}>
      Sign in with wallet
    </button>
  );
}
