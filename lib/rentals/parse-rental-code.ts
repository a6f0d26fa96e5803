// A rental code is the first 8–32 hex characters of the rental's UUID; dashes are optional and
// case does not matter. Returns the normalised hex prefix, or null when the format is wrong.
export function parseRentalCode(raw: string): string | null {
  const hex = raw.trim().replaceAll("-", "").toLowerCase();
  return /^[0-9a-f]{8,32}$/.test(hex) ? hex : null;
}

// Turns a hex prefix into the lowest and highest UUIDs that start with it.
export function uuidRangeForPrefix(hex: string): [string, string] {
  const format = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  return [format(hex.padEnd(32, "0")), format(hex.padEnd(32, "f"))];
}
