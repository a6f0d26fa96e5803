// What a fuzz case is (method, credential, cookie, headers, body) and the arbitraries that make
// them: garbage, unicode, near-valid JSON shaped like each route's real body.
import fc from "fast-check";
import { CATEGORIES } from "@/lib/agents/categories";
import type { World } from "./fuzz-world";

// --- what a case is ----------------------------------------------------------------------------

export const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type Method = (typeof METHODS)[number];

// Values a resolver turns into real credentials or state when the case runs.
export type Credential =
  | { kind: "none" }
  | { kind: "raw"; value: string; as: "x-api-key" | "bearer" | "authorization" }
  | { kind: "code"; which: keyof World["codes"]; as: "x-api-key" | "bearer"; shape: "plain" | "upper" | "uuid" }
  | { kind: "ownerKey"; as: "x-api-key" | "bearer" };
export type Cookie = { kind: "none" } | { kind: "raw"; value: string } | { kind: "session" };
export type Body =
  | { kind: "none" }
  | { kind: "bytes"; bytes: Uint8Array }
  | { kind: "text"; text: string }
  | { kind: "json"; value: unknown }
  | { kind: "truncated"; value: unknown; cut: number }
  | { kind: "oversize"; declare: boolean };

export type Case = {
  method: Method;
  credential: Credential;
  cookie: Cookie;
  contentType: string | null;
  contentLength: string | null;
  ip: string | null;
  extraHeaders: [string, string][];
  body: Body;
  /** Index into the route's pools (owner key and its agent), and which id an [id] route gets. */
  pick: number;
  id: "own" | "other" | "random" | "garbage";
  uuid: string;
  garbageId: string;
};

// Header values as a client can send them: Latin-1 text, tabs, surrounding spaces.
const headerChar = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.constant("\t") },
);
export const headerValue = fc.string({ unit: headerChar, maxLength: 80 });
export const headerName = fc.oneof(
  fc.constantFrom(
    "x-api-key",
    "authorization",
    "content-type",
    "cookie",
    "origin",
    "sec-fetch-site",
    "host",
    "x-forwarded-host",
    "x-real-ip",
    "user-agent",
    "accept",
    "x-health-check",
  ),
  fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/),
);
// Any Unicode text. One shared instance: fast-check builds a reverse table of every code point
// per instance the first time it shrinks or unmaps one.
export const unicodeText = fc.string({ unit: "binary", maxLength: 300 });
// Text that has broken services before: NUL (PostgreSQL refuses it in text), lone surrogates,
// bidi overrides, line breaks, scripts and emoji beyond Latin-1.
export const nastyText = fc.constantFrom(
  "nul\u0000byte",
  "\u0000",
  "lone \ud800 surrogate",
  "\udfff",
  "bidi \u202e txet",
  "two\nlines\r\n",
  "Bot — 24/7",
  "日本語エージェント",
  "🤖 Helper",
  "  ",
  "\u00a0",
);
export const hex = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${min},${max}}$`));
export const garbageText = fc.oneof(fc.string({ maxLength: 60 }), unicodeText, headerValue);

export const sentAs = fc.constantFrom("x-api-key" as const, "bearer" as const);
const rawAs = fc.constantFrom("x-api-key" as const, "bearer" as const, "authorization" as const);
const rental = fc.constantFrom<keyof World["codes"]>(
  "active",
  "active",
  "active",
  "failing",
  "noWebhook",
  "brokenCredentials",
  "expired",
  "cancelled",
);
const codeShape = fc.constantFrom("plain" as const, "upper" as const, "uuid" as const);
const none = fc.constant({ kind: "none" as const });

export const renterCredential: fc.Arbitrary<Credential> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({ kind: fc.constant("code" as const), which: rental, as: sentAs, shape: codeShape }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("raw" as const), value: headerValue, as: rawAs }) },
  // Well-formed codes that match nothing: kept rare, they spend the failed-lookup budgets.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("raw" as const), value: hex(8, 32), as: sentAs }) },
  { weight: 2, arbitrary: none },
);
export const ownerCredential: fc.Arbitrary<Credential> = fc.oneof(
  { weight: 12, arbitrary: fc.record({ kind: fc.constant("ownerKey" as const), as: sentAs }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("raw" as const),
      value: fc.oneof(
        headerValue,
        hex(8, 64).map((h) => `rck_${h}`),
      ),
      as: rawAs,
    }),
  },
  { weight: 2, arbitrary: none },
);
export const anyCredential: fc.Arbitrary<Credential> = fc.oneof(
  { weight: 3, arbitrary: none },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("raw" as const), value: headerValue, as: rawAs }) },
);
export const cookie: fc.Arbitrary<Cookie> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: "none" as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: "session" as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("raw" as const),
      value: fc.oneof(
        headerValue,
        fc.base64String({ maxLength: 64 }).map((t) => `ars_session=${t}`),
      ),
    }),
  },
);
export const contentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant("application/json") },
  { weight: 3, arbitrary: fc.constant(null) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "application/json; charset=utf-8",
      "APPLICATION/JSON",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=xyz",
      "multipart/form-data",
      "application/problem+json",
    ),
  },
  { weight: 1, arbitrary: headerValue },
);
export const contentLength = fc.oneof(
  { weight: 12, arbitrary: fc.constant(null) },
  {
    weight: 1,
    arbitrary: fc.oneof(fc.constantFrom("0", "-1", "abc", "1e3", "99999999999", " 12 ", ""), fc.nat().map(String)),
  },
);
export const ip = fc.oneof(
  { weight: 12, arbitrary: fc.constant(null) }, // a fresh address: rate limits do not answer first
  {
    weight: 1,
    arbitrary: fc.oneof(fc.constantFrom("", "unknown", "::1", "1.1.1.1, 2.2.2.2", "2001:db8::1"), headerValue),
  },
);

export function bodyOf(near: fc.Arbitrary<unknown>): fc.Arbitrary<Body> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant({ kind: "none" as const }) },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 512 }).map((bytes) => ({ kind: "bytes" as const, bytes })) },
    { weight: 1, arbitrary: unicodeText.map((text) => ({ kind: "text" as const, text })) },
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => ({ kind: "json" as const, value })) },
    { weight: 16, arbitrary: near.map((value) => ({ kind: "json" as const, value })) },
    {
      weight: 2,
      arbitrary: fc.tuple(near, fc.nat()).map(([value, cut]) => ({ kind: "truncated" as const, value, cut })),
    },
    { weight: 1, arbitrary: fc.boolean().map((declare) => ({ kind: "oversize" as const, declare })) },
  );
}

// The first value most of the time, each other one now and then.
export function mostly(valid: fc.Arbitrary<unknown>, ...others: fc.Arbitrary<unknown>[]): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 3 * others.length, arbitrary: valid }, ...others.map((arbitrary) => ({ weight: 1, arbitrary })));
}

// A near-valid object: each field mostly present and mostly valid, else garbage; sometimes an
// unknown field besides.
export function nearObject(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const maybe = Object.fromEntries(
    Object.entries(fields).map(([k, v]) => [
      k,
      fc.option(fc.oneof({ weight: 10, arbitrary: v }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) }), {
        freq: 12,
      }),
    ]),
  );
  return fc
    .tuple(
      fc.record(maybe),
      fc.oneof(
        { weight: 7, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 1 })) },
      ),
    )
    .map(([object, extra]) => {
      const present = Object.fromEntries(Object.entries(object).filter(([, v]) => v !== null));
      return extra ? { ...present, [extra[0]]: extra[1] } : present;
    });
}

export const usdcAmount = mostly(
  fc.oneof(fc.integer({ min: 1, max: 1_000 }), fc.constantFrom("2", "10.5", "0.000001")),
  fc.double(),
  fc.integer(),
  fc.constantFrom("", "0.0000001", "1e3", "-1", "ten", "1000001"),
  fc.constant(null),
);
export const listing = nearObject({
  // Names outside Latin-1 too: they travel to the webhook in X-Agent-Name.
  name: mostly(
    fc.string({ minLength: 2, maxLength: 60 }),
    unicodeText.map((t) => t.slice(0, 50)),
    nastyText,
  ),
  description: mostly(fc.string({ minLength: 1, maxLength: 520 }), nastyText),
  category: mostly(fc.constantFrom(...CATEGORIES), fc.string({ maxLength: 10 })),
  skills: fc.array(mostly(fc.constantFrom("code-review", "sql", "faq"), fc.string({ maxLength: 40 })), {
    maxLength: 10,
  }),
  channels: fc.array(mostly(fc.constantFrom("API", "Telegram", "Discord", "Slack"), fc.string({ maxLength: 10 })), {
    minLength: 1,
    maxLength: 5,
  }),
  pricePerHour: usdcAmount,
  pricePerDay: usdcAmount,
  pricePerMonth: usdcAmount,
  guaranteePercent: mostly(fc.constantFrom(90, 95.5, 99, 99.9, "99.5"), fc.double(), fc.string({ maxLength: 8 })),
});
export const address = mostly(
  hex(40, 40).map((h) => `0x${h}`),
  fc.string({ maxLength: 44 }),
);
