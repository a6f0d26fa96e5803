// What one account may hold (docs/decisions.md): enough for any honest owner, and a bound on what
// a stolen session or key can fill the database (and the health-check sweep) with.
export const MAX_LISTINGS_PER_ACCOUNT = 50;
export const MAX_ACTIVE_API_KEYS_PER_ACCOUNT = 20;
