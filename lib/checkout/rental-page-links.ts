import { signInPath } from "@/lib/auth/sign-in-path";

export type RentalPageLinks = { page: string; playground: string; extend: string };

/**
 * The renter's page of a rental, its playground and its extend page (docs/extend.md), as the checkout's result links to them. A
 * browser that is not signed in goes through the sign-in page, which comes back to the page asked
 * for (`next`, kept with its #playground).
 */
export function rentalPageLinks(rentalId: string, signedIn: boolean): RentalPageLinks {
  const page = `/dashboard/rentals/${rentalId}`;
  const through = (path: string) => (signedIn ? path : signInPath({ next: path }));
  return { page: through(page), playground: through(`${page}#playground`), extend: through(`${page}/extend`) };
}
