import "server-only";

// Where @chat-adapter/gchat fetches the certificates of chat@system.gserviceaccount.com: a fixed
// address, with the global fetch, that no option changes (docs/decisions.md).
const GOOGLE_APIS = "https://www.googleapis.com/service_accounts/";

let redirected: string | undefined;

/**
 * Development and tests only: sends the global fetch's requests for Google's service account
 * certificates to the platform mock at `mockUrl` (its /google/service_accounts/…), which serves
 * the certificate of the local key the simulator and the tests sign Google Chat's tokens with.
 * Every other request goes where it went. Called again, it only moves the target.
 */
export function redirectGoogleCertificates(mockUrl: string): void {
  const first = redirected === undefined;
  redirected = `${mockUrl.replace(/\/+$/, "")}/google/service_accounts/`;
  if (!first) return;
  const original = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (redirected && url.startsWith(GOOGLE_APIS)) return original(redirected + url.slice(GOOGLE_APIS.length), init);
    return original(input, init);
  };
}
