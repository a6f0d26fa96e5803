"use client";

import { useId, useState } from "react";
import type { DecisionStepperProps } from "@/app/dashboard/_components/decision-stepper";
import { FieldError } from "@/app/dashboard/_components/form-message";
import forms from "@/app/dashboard/_components/forms.module.css";
import { LazyDecisionStepper } from "@/app/dashboard/_components/lazy-decision-stepper";
import { formatUsdc, usdcInputValue } from "@/lib/format/usdc";
import { usdcToMicro } from "@/lib/money/usdc";

type Props = Omit<DecisionStepperProps, "decision" | "action"> & {
  /** The price and fee (micro-USDC as decimal strings: props cross to the browser). */
  price: string;
  fee: string;
  suggested: string;
};

/**
 * The arbiter's three decisions: the whole price back (and the fee), part of it (the amount in the
 * field, prefilled with the suggestion from the downtime), or nothing (the owner is paid). The
 * chosen one goes through the wallet stepper, from the arbiter's signed-in wallet.
 */
export function ArbiterDecision({ price, fee, suggested, ...stepper }: Props) {
  const id = useId();
  const priceMicro = BigInt(price);
  const suggestion = BigInt(suggested);
  // A part of the price is something between none and all of it: a suggestion of nothing (no
  // downtime measured) or of everything points at the other two decisions instead.
  const partOfPrice = suggestion > 0n && suggestion < priceMicro;
  const [amount, setAmount] = useState(partOfPrice ? usdcInputValue(suggestion) : "");
  const [error, setError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<{ refund: bigint; action: string } | null>(null);

  if (chosen) {
    return <LazyDecisionStepper {...stepper} decision={{ kind: "resolve", refund: String(chosen.refund) }} action={chosen.action} />;
  }

  function partial() {
    const micro = usdcToMicro(amount.trim());
    if (micro === null || micro <= 0n || micro >= priceMicro) {
      setError(`Enter an amount above 0 and below the price (${formatUsdc(priceMicro)}), with at most 6 decimals.`);
      return;
    }
    setChosen({ refund: micro, action: `Refund ${formatUsdc(micro)} to the renter; pay ${formatUsdc(priceMicro - micro)} to the owner` });
  }

  return (
    <div className={`field ${forms.form}`}>
      <h3 style={{ margin: "0.75rem 0 0", fontSize: "1rem" }}>Your decision</h3>
      <label htmlFor={`${id}-refund`}>Partial refund (USDC)</label>
      <p className="hint" id={`${id}-hint`}>
        {partOfPrice
          ? "Prefilled with the suggestion. "
          : suggestion === 0n
            ? "No downtime was measured, so the evidence suggests releasing to the owner. "
            : "The agent was down for the whole rental, so the evidence suggests a full refund. "}
        The renter gets this amount, the owner the rest of the price; the fee stays with the service.
      </p>
      <div className={forms.inputRow}>
        <input
          id={`${id}-refund`}
          inputMode="decimal"
          value={amount}
          onChange={(e) => {
            setAmount(e.target.value);
            setError(null);
          }}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
          aria-invalid={error ? true : undefined}
          style={{ maxWidth: "12rem" }}
        />
        <button type="button" className="button button-primary" onClick={partial}>
          Refund part
        </button>
      </div>
      <FieldError id={`${id}-error`} message={error ?? undefined} />
      <div style={{ display: "flex", flexWrap: "wrap", gap: "0.5rem", marginTop: "0.75rem" }}>
        <button
          type="button"
          className="button"
          onClick={() => setChosen({ refund: priceMicro, action: `Refund the renter in full (${formatUsdc(priceMicro + BigInt(fee))})` })}
        >
          Full refund
        </button>
        <button
          type="button"
          className="button"
          onClick={() => setChosen({ refund: 0n, action: `Release ${formatUsdc(priceMicro)} to the owner (no refund)` })}
        >
          Release to the owner
        </button>
      </div>
    </div>
  );
}
