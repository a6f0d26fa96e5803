"use client";
// Keeps the rental's page current without a reload: it asks the page's small route what the page
// would now show (lib/rentals/rental-live-state.ts) and, when that differs from what is on screen,
// refreshes the page's server data (router.refresh(): client state such as the playground's
// conversation or a half-filled form stays). Quickly right after something done here that the
// service records a moment later (a playground message, a dispute sent on chain), slowly otherwise,
// and not at all while the tab is hidden.
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { rentalStatusLabel } from "@/lib/format/status-label";
import {
  expectLiveChange,
  type LiveExpectation,
  type LivePollPlan,
  nextLivePoll,
  type RentalLiveState,
  rentalLiveStateSchema,
  sameRentalLiveState,
} from "@/lib/rentals/rental-live-state";

// The page's parts (the playground, the dispute stepper) tell this one in a window event: they sit
// anywhere in the page, which this component need not wrap.
const EXPECT_EVENT = "rental-live:expect";

/** For the page's parts: something was just done whose effect the page should show soon. */
export function expectRentalChange(what: LiveExpectation): void {
  window.dispatchEvent(new CustomEvent<LiveExpectation>(EXPECT_EVENT, { detail: what }));
}

type Props = { rentalId: string; state: RentalLiveState; endsAt: string };

export function RentalLiveUpdates({ rentalId, state, endsAt }: Props) {
  const router = useRouter();
  // What the page shows: the server's render, or a newer state already asked for by a refresh.
  const shown = useRef(state);
  const plan = useRef<LivePollPlan>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [announcement, setAnnouncement] = useState("");

  useEffect(() => {
    shown.current = state;
  }, [state]);

  const look = useCallback(async () => {
    clearTimeout(timer.current);
    if (!document.hidden) {
      try {
        const res = await fetch(`/api/dashboard/rentals/${rentalId}/live`, { cache: "no-store" });
        const fresh = res.ok ? rentalLiveStateSchema.safeParse(await res.json()) : null;
        if (fresh?.success && !sameRentalLiveState(fresh.data, shown.current)) {
          if (fresh.data.status !== shown.current.status)
            setAnnouncement(`This rental is now ${rentalStatusLabel(fresh.data.status, new Date(endsAt)).label.toLowerCase()}.`);
          shown.current = fresh.data;
          router.refresh();
        }
      } catch {
        // Offline for a moment, or a deploy: the next look tries again.
      }
    }
    // One timer at a time: an expectation that came in during the fetch is in the plan already.
    clearTimeout(timer.current);
    const delay = nextLivePoll(plan.current, shown.current.status, Date.now());
    if (delay !== null) timer.current = setTimeout(() => void look(), delay);
  }, [rentalId, endsAt, router]);

  useEffect(() => {
    const delay = nextLivePoll(plan.current, shown.current.status, Date.now());
    if (delay !== null) timer.current = setTimeout(() => void look(), delay);
    const onExpect = (event: Event) => {
      plan.current = expectLiveChange(plan.current, (event as CustomEvent<LiveExpectation>).detail, Date.now());
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void look(), nextLivePoll(plan.current, shown.current.status, Date.now()) ?? 0);
    };
    // Back to a hidden tab: look at once rather than at the next tick.
    const onVisible = () => {
      if (!document.hidden) void look();
    };
    window.addEventListener(EXPECT_EVENT, onExpect);
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      clearTimeout(timer.current);
      window.removeEventListener(EXPECT_EVENT, onExpect);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [look]);

  return (
    <p role="status" className="visually-hidden">
      {announcement}
    </p>
  );
}
