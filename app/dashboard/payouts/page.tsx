// /dashboard/payouts — what the owner has been paid, what is locked in escrow, what the escrow
// holds for them to withdraw (with a Withdraw stepper), the history of payouts, and the answers
// sold per message by day (their prices are part of the withdrawable credit).
import type { Metadata } from "next";
import { FigureCard } from "@/app/dashboard/_components/figure-card";
import { requireSignedInAccount } from "@/lib/auth/signed-in-account";
import { escrowChain } from "@/lib/chain/escrow-chain";
import { formatUsdc } from "@/lib/format/usdc";
import { listMessageEarnings } from "@/lib/payouts/list-message-earnings";
import { listPayoutHistory } from "@/lib/payouts/list-payout-history";
import { loadOwnerPayouts } from "@/lib/payouts/load-owner-payouts";
import { TableScrollRegion } from "../_components/table-scroll-region";
import styles from "../dashboard.module.css";
import { MessageEarnings } from "./_components/message-earnings";
import { PayoutHistory } from "./_components/payout-history";
import { WithdrawCredits } from "./_components/withdraw-credits";

export const metadata: Metadata = { title: "Payouts" };

export default async function PayoutsPage() {
  const account = await requireSignedInAccount();
  const [payouts, history, earnings] = await Promise.all([
    loadOwnerPayouts(account),
    listPayoutHistory(account.id),
    listMessageEarnings(account.id),
  ]);
  const chain = escrowChain();
  const { credit } = payouts;
  return (
    <main id="main" tabIndex={-1}>
      <div className={styles.header}>
        <h1>Payouts</h1>
      </div>
      <p className="lead">
        Renters pay into an escrow contract. When a rental ends the escrow pays you its price (the renter paid the 1 USDC fee on top).
        Answers sold per message are paid into the same escrow: each paid answer&apos;s price is added to your withdrawable credit below.
      </p>
      <dl className={styles.cards}>
        <FigureCard name="Released" note={<>prices of completed rentals</>}>
          {formatUsdc(payouts.releasedMicro)}
        </FigureCard>
        <FigureCard name="In escrow" note={<>active and disputed rentals; paid when they end</>}>
          {formatUsdc(payouts.inEscrowMicro)}
        </FigureCard>
        <FigureCard name="Per-message earnings" note={<>answers sold one at a time; part of your credit</>}>
          {formatUsdc(payouts.messageEarnedMicro)}
        </FigureCard>
        <FigureCard
          name="Withdrawable credit"
          note={
            credit.kind === "ok"
              ? "held by the escrow for you"
              : credit.kind === "no-wallet"
                ? "no wallet linked"
                : credit.kind === "not-configured"
                  ? "payments not configured"
                  : "could not be read"
          }
        >
          {credit.kind === "ok" ? formatUsdc(credit.totalMicro) : "—"}
        </FigureCard>
      </dl>

      <section className={styles.panel} aria-labelledby="credit-heading">
        <h2 id="credit-heading">Withdrawable credit</h2>
        {credit.kind === "ok" && (
          <>
            <p>
              Rental payouts are normally sent straight to your wallet. A payout the token refused to transfer (for example to a blocked
              address) is kept for you as credit in the escrow contract instead, so it is never lost. The prices of answers sold per message
              are always kept as credit: withdraw them here.
            </p>
            <TableScrollRegion label="Credit by payout address">
              <table className={styles.table}>
                <caption className="visually-hidden">Credit by payout address</caption>
                <thead>
                  <tr>
                    <th scope="col">Payout address</th>
                    <th scope="col" className={styles.num}>
                      Credit
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {credit.lines.map((line) => (
                    <tr key={line.address}>
                      <th scope="row">
                        <code className={styles.address}>{line.address}</code>
                      </th>
                      <td className={styles.num}>{formatUsdc(line.micro)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScrollRegion>
            {chain && (
              <WithdrawCredits chain={chain} lines={credit.lines.map((l) => ({ address: l.address, micro: l.micro.toString() }))} />
            )}
          </>
        )}
        {credit.kind === "ok" && credit.totalMicro === 0n && <p>Nothing to withdraw: every payout reached your wallet.</p>}
        {credit.kind === "no-wallet" && (
          <p>
            Your account has no wallet and none of your rentals or answers sold has a payout address yet, so there is no credit to read.
            Sign in with a wallet to receive payouts to it.
          </p>
        )}
        {credit.kind === "not-configured" && (
          <p role="status">Payments are not configured on this server, so there is no escrow to read credit from.</p>
        )}
        {credit.kind === "unavailable" && (
          <p role="alert" className={styles.alert}>
            {credit.message}
          </p>
        )}
      </section>

      <section className={styles.panel} aria-labelledby="history-heading">
        <h2 id="history-heading">History</h2>
        <PayoutHistory history={history} explorerUrl={chain?.explorerUrl ?? null} />
      </section>

      <section className={styles.panel} aria-labelledby="message-earnings-heading">
        <h2 id="message-earnings-heading">Per-message earnings</h2>
        <p>
          Answers your listings sold one at a time, by the day they were paid (UTC). You earn each answer&apos;s price; the escrow adds it
          to your withdrawable credit above.
        </p>
        <MessageEarnings earnings={earnings} explorerUrl={chain?.explorerUrl ?? null} />
      </section>
    </main>
  );
}
