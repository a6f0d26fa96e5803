"use client";
// "Move to another chat account" on the checkout's result. This browser paid for the rental (it
// holds the quote's claim secret): that is the renter's consent the code alone never gives. A
// payment recovered without the secret moves from the rental's page in the dashboard instead.
import { useState } from "react";
import { ChatMoveCommand, type MoveCommand } from "@/app/_components/chat-move-command";
import type { ChannelLinks } from "@/lib/checkout/activation";
import { requestChatMove } from "@/lib/checkout/checkout-api";

type Props = { rentalId: string; claimSecret: string | undefined; links: ChannelLinks };

export function ChatMovePanel({ rentalId, claimSecret, links }: Props) {
  const [move, setMove] = useState<MoveCommand | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  if (!claimSecret) {
    return (
      <p className="hint">
        To move it to another chat account, sign in with the wallet that paid and press <strong>Move to another chat account</strong> on the
        rental&apos;s page under My rentals.
      </p>
    );
  }
  const secret = claimSecret; // narrowed, for the handler below

  async function ask() {
    setPending(true);
    setError(null);
    try {
      setMove(await requestChatMove(rentalId, secret));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setPending(false);
    }
  }

  return (
    <>
      <p>
        The code connects the first chat account that sends it, and after that only that one. If another account got there first, or you
        change accounts, move the rental here (this page can, as it paid for the rental; so can the rental&apos;s page under My rentals).
      </p>
      <p>
        <button type="button" className="button" onClick={() => void ask()} disabled={pending} aria-busy={pending}>
          Move to another chat account
        </button>
      </p>
      <div aria-live="polite">
        {error && (
          <p className="notice" role="alert">
            {error}
          </p>
        )}
      </div>
      {move && <ChatMoveCommand move={move} links={links} />}
    </>
  );
}
