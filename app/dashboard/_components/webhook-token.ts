// A webhook token drawn in the browser: 32 random bytes (256 bits) from crypto.getRandomValues,
// as 43 base64url characters (safe in an Authorization header and in a shell).
export function generateWebhookToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
