// `npm run bench`, called by bench/run.ts against its production server: the JavaScript each
// page makes a browser download on first load, and whether that JavaScript contains wallet code.
// For each page it fetches the HTML (no session), collects every external script it references
// (<script src>, except nomodule ones modern browsers skip, and <link rel=preload|modulepreload
// as=script>), downloads each chunk once and sums raw bytes and gzip bytes (gzip level 9, each
// chunk compressed on its own as a server would send it). Inline scripts (the RSC payload) are not
// counted. Chunks that the first-load chunks name but do not load (turbopack's loaders for dynamic
// imports), followed transitively, are reported apart: what the page may fetch later, if ever.
// The rent page's client entry (in its HTML whether or not payments are configured) names its
// wallet chunks, so the bench server needs no chain settings.

import { gzipSync } from "node:zlib";

// Strings that only the wallet libraries put into a bundle: the EIP-1193 account request
// (viem's wallet actions, wagmi's connectors), wagmi's own name (its storage key and error
// messages) and viem's version tag in its errors.
const WALLET_MARKERS = ["eth_requestAccounts", "wagmi", "viem@"] as const;

export type ScriptSet = { scripts: number; raw: number; gzip: number; markers: string[] };
// route: how the table names the page; path: what is fetched; walletExpected: the page whose
// scripts (first load or on demand) must show wallet code, so a marker that stopped matching is
// noticed instead of reading as "none".
export type Page = { route: string; path: string; walletExpected?: boolean };
export type PageFirstLoad = Page & { skipped?: string; firstLoad?: ScriptSet; onDemand?: ScriptSet };

type Chunk = { bytes: Buffer; text: string; gzip: number };

export async function measureFirstLoadJs(base: string, pages: Page[]): Promise<PageFirstLoad[]> {
  const chunks = new Map<string, Promise<Chunk>>();
  const download = (url: string) => {
    let chunk = chunks.get(url);
    if (!chunk) {
      chunk = fetch(url).then(async (res) => {
        if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
        const bytes = Buffer.from(await res.arrayBuffer());
        return { bytes, text: bytes.toString("utf8"), gzip: gzipSync(bytes, { level: 9 }).length };
      });
      chunks.set(url, chunk);
    }
    return chunk;
  };
  const summarise = async (urls: string[]): Promise<ScriptSet> => {
    const loaded = await Promise.all(urls.map(download));
    return {
      scripts: urls.length,
      raw: loaded.reduce((sum, c) => sum + c.bytes.length, 0),
      gzip: loaded.reduce((sum, c) => sum + c.gzip, 0),
      markers: WALLET_MARKERS.filter((m) => loaded.some((c) => c.text.includes(m))),
    };
  };

  const results: PageFirstLoad[] = [];
  for (const page of pages) {
    const { path } = page;
    const res = await fetch(new URL(path, base), { redirect: "manual" });
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel();
      results.push({ ...page, skipped: `redirects to ${res.headers.get("location")} without a session` });
      continue;
    }
    if (!res.ok) throw new Error(`GET ${path}: HTTP ${res.status}`);
    const html = await res.text();
    const firstLoad = scriptUrls(html, base);

    // Chunks named inside the first-load ones (turbopack's loaders list them as
    // "static/chunks/….js"), followed transitively.
    const seen = new Set(firstLoad);
    const onDemand: string[] = [];
    const queue = [...firstLoad];
    while (queue.length) {
      const { text } = await download(queue.shift()!);
      for (const [ref] of text.matchAll(/static\/chunks\/[\w\-./~]+?\.js\b/g)) {
        const url = new URL(`/_next/${ref}`, base).toString();
        if (seen.has(url)) continue;
        seen.add(url);
        onDemand.push(url);
        queue.push(url);
      }
    }
    results.push({ ...page, firstLoad: await summarise(firstLoad), onDemand: await summarise(onDemand) });
  }
  return results;
}

// Same-origin external scripts of a page, in document order, each once.
function scriptUrls(html: string, base: string): string[] {
  const urls = new Set<string>();
  const attr = (tag: string, name: string) => tag.match(new RegExp(`\\s${name}(?=[\\s=/>])(?:=(?:"([^"]*)"|'([^']*)'|([^\\s>]+)))?`, "i"));
  const value = (m: RegExpMatchArray | null) => (m ? (m[1] ?? m[2] ?? m[3] ?? "") : undefined);
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/gi)) {
    let src: string | undefined;
    if (tag.toLowerCase().startsWith("<script")) {
      if (attr(tag, "nomodule")) continue; // only browsers without ES modules fetch these
      src = value(attr(tag, "src"));
    } else {
      const rel = value(attr(tag, "rel"))?.toLowerCase().split(/\s+/) ?? [];
      const as = value(attr(tag, "as"))?.toLowerCase();
      if (rel.includes("modulepreload") || (rel.includes("preload") && as === "script")) src = value(attr(tag, "href"));
    }
    if (!src) continue;
    const url = new URL(src.replaceAll("&amp;", "&"), base);
    if (url.origin === new URL(base).origin) urls.add(url.toString());
  }
  return [...urls];
}

export function printFirstLoadJs(results: PageFirstLoad[]): void {
  const kib = (bytes: number) => (bytes / 1024).toFixed(1);
  const wallet = (s: ScriptSet) => (s.markers.length ? `present (${s.markers.join(", ")})` : "none");
  console.log(`\nFirst-load JS per page (production build, no session; gzip level 9, per chunk; inline scripts not counted)\n`);
  console.table(
    results.map((r) =>
      r.firstLoad
        ? {
            page: r.route,
            scripts: r.firstLoad.scripts,
            "raw KiB": kib(r.firstLoad.raw),
            "gzip KiB": kib(r.firstLoad.gzip),
            "wallet code": wallet(r.firstLoad),
          }
        : { page: r.route, scripts: "-", "raw KiB": "-", "gzip KiB": "-", "wallet code": `not measured: ${r.skipped}` },
    ),
  );
  console.log("\nReachable only through dynamic imports (fetched on demand, if ever; all of it, transitively):\n");
  console.table(
    results
      .filter((r) => r.onDemand)
      .map((r) => ({
        page: r.route,
        scripts: r.onDemand!.scripts,
        "raw KiB": kib(r.onDemand!.raw),
        "gzip KiB": kib(r.onDemand!.gzip),
        "wallet code": wallet(r.onDemand!),
      })),
  );
  for (const r of results.filter((r) => r.walletExpected && r.firstLoad && !r.firstLoad.markers.length && !r.onDemand?.markers.length)) {
    console.log(
      `Warning: no wallet marker in any JS of ${r.route}, which has the checkout: "none" above proves nothing; update WALLET_MARKERS in bench/first-load-js.ts.`,
    );
  }
}
