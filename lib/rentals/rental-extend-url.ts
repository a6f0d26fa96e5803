import "server-only";
import { appUrl } from "@/lib/env";

/**
 * Where the renter extends a rental, as an absolute link for e-mails and chat messages: the extend
 * page (docs/extend.md), signed in as the renter (a signed-out browser signs in and comes back).
 */
export function rentalExtendUrl(rentalId: string): string {
  return `${appUrl()}/dashboard/rentals/${encodeURIComponent(rentalId)}/extend`;
}
