import "server-only";
import { ApiError } from "@/lib/http/api-error";
import { clientIp } from "@/lib/http/client-ip";
import { credentialFromHeaders } from "@/lib/http/credential-from-headers";
import { rateLimitError } from "@/lib/http/rate-limit-error";
import { limiters } from "@/lib/ratelimit/policies";
import { findRentalByCode, type RentalWithAgent } from "@/lib/rentals/find-rental-by-code";
import { parseRentalCode } from "@/lib/rentals/parse-rental-code";

// Resolves the rental code of a /v1 request. `unknownStatus` differs by endpoint (spec: status
// answers 404 for an unknown rental, chat 401). Lookups that find nothing spend from a tighter
// per-IP bucket, so guessing codes is slow; an IP that emptied it is refused before any lookup
// result is revealed.
export async function authenticateRental(req: Request, unknownStatus: 401 | 404): Promise<RentalWithAgent> {
  const raw = credentialFromHeaders(req.headers);
  if (!raw) {
    throw new ApiError(401, "Missing rental code: send it as 'X-API-Key: <code>' or 'Authorization: Bearer <code>'.");
  }
  const hex = parseRentalCode(raw);
  if (!hex) {
    throw new ApiError(401, "Invalid rental code: use the first 8 or more hex characters of your rental ID (dashes optional).");
  }
  const ip = clientIp(req.headers);
  const guard = limiters().failedCodeLookup;
  const [gate, lookup] = await Promise.all([guard.peek(ip), findRentalByCode(hex)]);
  if (!gate.allowed) throw rateLimitError(gate);
  if (lookup.kind === "ambiguous") {
    throw new ApiError(400, "This rental code matches more than one rental; send more characters of the rental ID.");
  }
  if (lookup.kind === "none") {
    const spent = await guard.limit(ip);
    if (!spent.allowed) throw rateLimitError(spent);
    throw new ApiError(
      unknownStatus,
      unknownStatus === 404 ? "Rental not found: check the rental code." : "Invalid rental code: no rental matches it.",
    );
  }
  return lookup.rental;
}
