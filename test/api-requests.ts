import { uniqueIp } from "@/test/fixtures";

// Requests to the two API surfaces as scripts send them: the renter API (/api/v1, the rental code
// as the key) and the owner API (/api/public, the owner's key), each from its own client address.

type ApiRequestOptions = {
  method?: string;
  auth?: "x-api-key" | "bearer";
  ip?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
};
export type RenterRequest = ApiRequestOptions & { code?: string };
export type OwnerRequest = ApiRequestOptions & { key?: string };

function apiRequest(url: string, credential: string | undefined, auth: "x-api-key" | "bearer", options: ApiRequestOptions): Request {
  const headers: Record<string, string> = { "x-forwarded-for": options.ip ?? uniqueIp(), ...options.headers };
  if (credential !== undefined) {
    if (auth === "bearer") headers.authorization = `Bearer ${credential}`;
    else headers["x-api-key"] = credential;
  }
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  return new Request(url, { method: options.method ?? (body ? "POST" : "GET"), headers, body });
}

/** /api/v1/<path> with the rental code in X-API-Key (or as a bearer token). */
export function renterRequest(path: string, { code, auth = "x-api-key", ...options }: RenterRequest = {}): Request {
  return apiRequest(`http://localhost/api/v1/${path}`, code, auth, options);
}

/** /api/public/<path> with the owner's key as a bearer token (or in X-API-Key). */
export function ownerRequest(path: string, { key, auth = "bearer", ...options }: OwnerRequest = {}): Request {
  return apiRequest(`http://localhost/api/public/${path}`, key, auth, options);
}
