import { z } from "zod";
import { CATEGORIES } from "@/lib/agents/categories";
import { microToUsdc, usdcToMicro } from "@/lib/money/usdc";
import { channelSchema, durationTypeSchema } from "@/lib/schemas/renter-api";

// The marketplace's URL search parameters (/?q=…&category=…). A URL is typed by people and
// pasted from anywhere, so a value that does not parse is dropped (its default applies) rather
// than failing the page: `marketplaceQuerySchema.parse` never throws.

export const MARKETPLACE_SORTS = ["relevance", "price-asc", "price-desc", "rating", "popular", "newest"] as const;
export const marketplaceSortSchema = z.enum(MARKETPLACE_SORTS);
export type MarketplaceSort = z.infer<typeof marketplaceSortSchema>;

export const MARKETPLACE_PAGE_SIZE = 24;
export const MAX_QUERY_CHARS = 100;
// Deep OFFSETs cost the database more than anyone reads; nobody pages 24 × 1,000 agents.
export const MAX_PAGE = 1_000;

// `?a=1&a=2` arrives as an array: the first value counts. Blank fields (an empty form input)
// mean "not set".
function single(value: unknown): unknown {
  const first = Array.isArray(value) ? value[0] : value;
  if (typeof first !== "string") return undefined;
  const trimmed = first.trim();
  return trimmed === "" ? undefined : trimmed;
}

function lenient<T extends z.ZodType>(schema: T) {
  return z.preprocess(single, schema.optional()).catch(undefined);
}

// Far above any listing (at most 1,000,000 USDC) and well inside PostgreSQL's bigint.
const MAX_PRICE_PARAM_MICRO = 10n ** 15n;

// "12.5", "$12.50", "1,000" → micro-USDC; anything else (negative, > 6 decimals, words) → dropped.
const usdcParam = lenient(
  z.string().transform((text, ctx) => {
    const micro = usdcToMicro(text.replace(/^\$\s*/, "").replaceAll(",", ""));
    if (micro === null || micro > MAX_PRICE_PARAM_MICRO) {
      ctx.addIssue({ code: "custom", message: "not a USDC amount" });
      return z.NEVER;
    }
    return micro;
  }),
);

const skillParam = z
  .string()
  .toLowerCase()
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/)
  .max(32);

export const marketplaceQuerySchema = z
  .object({
    q: lenient(z.string().transform((s) => s.replace(/\s+/g, " ").slice(0, MAX_QUERY_CHARS))),
    category: lenient(z.enum(CATEGORIES)),
    skill: lenient(skillParam),
    channel: lenient(channelSchema),
    // Micro-USDC. With `duration` they bound that duration's price, otherwise the cheapest price.
    minPrice: usdcParam,
    maxPrice: usdcParam,
    duration: lenient(durationTypeSchema),
    // Listings that also sell single answers over x402 (`perMessage=1`), and at most this price
    // per answer (`maxMessagePrice`, micro-USDC; it implies perMessage). Neither touches the
    // rental prices' filters above.
    perMessage: lenient(z.literal(["1", "true", "on"]).transform(() => true as const)),
    maxMessagePrice: usdcParam,
    sort: z.preprocess(single, marketplaceSortSchema).catch("relevance"),
    page: z.preprocess(single, z.coerce.number().int().min(1).max(MAX_PAGE)).catch(1),
  })
  .transform((parsed) => {
    // A price per answer is only met by listings sold per message: the box is ticked with it.
    const query = parsed.maxMessagePrice === undefined ? parsed : { ...parsed, perMessage: true as const };
    // "from 50 to 10" is read as "between 10 and 50", which is what the person meant.
    if (query.minPrice !== undefined && query.maxPrice !== undefined && query.minPrice > query.maxPrice) {
      return { ...query, minPrice: query.maxPrice, maxPrice: query.minPrice };
    }
    return query;
  });

export type MarketplaceQuery = z.output<typeof marketplaceQuerySchema>;
export type MarketplaceSearchParams = Record<string, string | string[] | undefined>;

// Never throws: every field falls back on its own.
export function parseMarketplaceQuery(params: MarketplaceSearchParams | URLSearchParams): MarketplaceQuery {
  const record: Record<string, unknown> =
    params instanceof URLSearchParams ? Object.fromEntries([...params.keys()].map((k) => [k, params.getAll(k)])) : params;
  return marketplaceQuerySchema.parse(record);
}

export const DEFAULT_MARKETPLACE_QUERY: MarketplaceQuery = parseMarketplaceQuery({});

// The canonical URL of a query (defaults left out), so links for pagination, "remove this
// filter" and "clear filters" round-trip through parseMarketplaceQuery unchanged.
export function marketplaceHref(query: Partial<MarketplaceQuery>, base = "/"): string {
  const params = new URLSearchParams();
  const set = (key: string, value: string | undefined) => {
    if (value !== undefined && value !== "") params.set(key, value);
  };
  set("q", query.q);
  set("category", query.category);
  set("skill", query.skill);
  set("channel", query.channel);
  set("minPrice", query.minPrice === undefined ? undefined : String(microToUsdc(query.minPrice)));
  set("maxPrice", query.maxPrice === undefined ? undefined : String(microToUsdc(query.maxPrice)));
  set("duration", query.duration);
  if (query.perMessage) set("perMessage", "1");
  set("maxMessagePrice", query.maxMessagePrice === undefined ? undefined : String(microToUsdc(query.maxMessagePrice)));
  if (query.sort && query.sort !== "relevance") set("sort", query.sort);
  if (query.page && query.page > 1) set("page", String(query.page));
  const text = params.toString();
  return text ? `${base}?${text}` : base;
}

// Whether anything narrows the results (sort and page do not).
export function hasMarketplaceFilters(query: MarketplaceQuery): boolean {
  return query.q !== undefined || countMarketplaceFilters(query) > 0;
}

/** The filters set beside the search words: what a phone's "Filters" disclosure counts. */
export function countMarketplaceFilters(query: MarketplaceQuery): number {
  return [
    query.category,
    query.skill,
    query.channel,
    query.minPrice,
    query.maxPrice,
    query.duration,
    query.perMessage,
    query.maxMessagePrice,
  ].filter((v) => v !== undefined).length;
}

/**
 * The same URL without its blank parameters (`/?q=echo`, not `/?q=echo&category=&skill=`), or
 * null when it has none. A form sent without JavaScript names every field; the page sends the
 * browser on to this. Other parameters stay as they came.
 */
export function withoutBlankParams(params: MarketplaceSearchParams, base = "/"): string | null {
  const kept = new URLSearchParams();
  let blank = false;
  for (const [key, value] of Object.entries(params)) {
    for (const one of Array.isArray(value) ? value : [value ?? ""]) {
      if (one.trim() === "") blank = true;
      else kept.append(key, one);
    }
  }
  if (!blank) return null;
  const text = kept.toString();
  return text ? `${base}?${text}` : base;
}
