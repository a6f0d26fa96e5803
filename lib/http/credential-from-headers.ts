// Both API surfaces take their credential as `X-API-Key: <value>` or `Authorization: Bearer <value>`
// (X-API-Key wins when both are sent). Returns null when neither carries a value.
export function credentialFromHeaders(headers: Headers): string | null {
  const apiKey = headers.get("x-api-key")?.trim();
  if (apiKey) return apiKey;
  const match = /^Bearer\s+(.+)$/i.exec(headers.get("authorization")?.trim() ?? "");
  return match ? match[1].trim() : null;
}
