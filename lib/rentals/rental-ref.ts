/** A rental's reference (rentals.ref): what the owner, the arbiter's console and `dispute:list` see. */
export const RENTAL_REF = /^rr_[0-9a-f]{32}$/i;
