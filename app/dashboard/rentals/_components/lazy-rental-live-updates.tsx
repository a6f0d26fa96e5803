"use client";

import dynamic from "next/dynamic";

// In the browser only: it follows the page with the app router and the tab's visibility, and its
// server render would be an empty status line.
export const LazyRentalLiveUpdates = dynamic(() => import("./rental-live-updates").then((m) => m.RentalLiveUpdates), { ssr: false });
