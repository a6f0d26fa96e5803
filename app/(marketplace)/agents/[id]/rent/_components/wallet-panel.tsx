"use client";
// The Wallet part: connect buttons, or the connected wallet with its chain, USDC balance and gas.
import { useState } from "react";
import { useConnect, useConnectors, useDisconnect, useSwitchChain } from "wagmi";
import type { PublicChainSettings } from "@/lib/chain/public-chain-settings";
import { shortHex } from "@/lib/chain/short-hex";
import { describeWalletError } from "@/lib/checkout/wallet-errors";
import { formatUsdc } from "@/lib/format/usdc";
import styles from "./checkout.module.css";
import type { WalletPaymentState } from "./use-wallet-payment";

export type WalletPanelProps = Pick<WalletPaymentState, "connection" | "onChain" | "balance" | "gas" | "short" | "running"> & {
  chain: PublicChainSettings;
};

export function WalletPanel({ connection, onChain, balance, gas, short, running, chain }: WalletPanelProps) {
  const connectors = useConnectors();
  const connect = useConnect();
  const disconnect = useDisconnect();
  const switchChain = useSwitchChain();
  const [connectError, setConnectError] = useState<string | null>(null);
  const address = connection.address;

  async function connectWith(connectorUid: string) {
    setConnectError(null);
    const connector = connectors.find((c) => c.uid === connectorUid);
    if (!connector) return;
    try {
      await connect.mutateAsync({ connector, chainId: chain.chainId });
    } catch (error) {
      setConnectError(describeWalletError(error).message);
    }
  }

  // One button per wallet. Wallets that announce themselves (EIP-6963) are named; the generic
  // window.ethereum one is shown only when none did (it would be one of them again).
  const announced = connectors.filter((c) => c.type === "injected" && c.id !== "injected");
  const browserWallets = announced.length > 0 ? announced : connectors.filter((c) => c.id === "injected");
  const otherWallets = connectors.filter((c) => c.type !== "injected");

  return (
    <div className={styles.wallet}>
      <h3>Wallet</h3>
      {connection.status === "connected" && address ? (
        <>
          <p>
            Connected: <code data-testid="wallet-address">{shortHex(address)}</code>
            {connection.connector ? ` (${connection.connector.name})` : ""}{" "}
            <button type="button" className="button button-quiet" onClick={() => disconnect.mutate()} disabled={running}>
              Disconnect
            </button>
          </p>
          {!onChain && (
            <div className="notice" role="alert">
              <p>
                Your wallet is on {connection.chain?.name ?? `chain ${connection.chainId}`}; payments are made on {chain.chainName}.
              </p>
              <p>
                <button
                  type="button"
                  className="button button-primary"
                  disabled={switchChain.isPending}
                  onClick={() => switchChain.mutate({ chainId: chain.chainId })}
                >
                  {switchChain.isPending ? "Confirm the switch in your wallet…" : `Switch to ${chain.chainName}`}
                </button>
              </p>
              {switchChain.error && <p>{describeWalletError(switchChain.error).message}</p>}
            </div>
          )}
          {onChain && (
            <p data-testid="usdc-balance">
              Balance: {balance.data !== undefined ? `${formatUsdc(balance.data)}` : balance.isError ? "could not be read" : "reading…"}{" "}
              <button type="button" className="button button-quiet" onClick={() => void balance.refetch()}>
                Refresh balance
              </button>
            </p>
          )}
          {onChain && short && (
            <p className="notice" role="alert" data-testid="balance-shortfall">
              {short}
            </p>
          )}
          {onChain && gas.data && gas.data.value === 0n && (
            <p className="notice" role="note">
              This wallet holds no {gas.data.symbol} on {chain.chainName}: it needs a little to pay the transaction fee (gas).
            </p>
          )}
        </>
      ) : (
        <>
          <p className="hint">Connect the wallet that holds your USDC on {chain.chainName}.</p>
          <div className={styles.buttons}>
            {[...browserWallets, ...otherWallets].map((c) => (
              <button
                key={c.uid}
                type="button"
                className={browserWallets.includes(c) ? "button button-primary" : "button"}
                disabled={connect.isPending && connect.variables?.connector === c}
                onClick={() => void connectWith(c.uid)}
              >
                {c.id === "injected" ? "Connect browser wallet" : `Connect with ${c.name}`}
              </button>
            ))}
            {connect.isPending && (
              <button type="button" className="button button-quiet" onClick={() => connect.reset()}>
                Cancel
              </button>
            )}
          </div>
          {connect.isPending && <p role="status">Waiting for your wallet… Approve the connection there.</p>}
          {connectError && (
            <p className="notice" role="alert">
              {connectError}
            </p>
          )}
        </>
      )}
    </div>
  );
}
