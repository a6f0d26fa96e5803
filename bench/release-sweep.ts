// `npm run bench:sweep` (and part of `npm run bench`): the release sweep
// (lib/chain/release-ended-rentals.ts) over 10,000 ended rentals, on a local anvil chain with the
// real RentalEscrow and a test USDC, and a fresh database on the real PostgreSQL. Every rental is
// paid into the escrow on chain (createRental with a signed quote, 20 renters, 100 owners) and has
// ended; the sweep is then called as the cron calls it, one run after another until a run finds
// nothing. Prints the seeding time (not timed with the sweep), the sweep's wall time, runs,
// transactions, gas (from the receipts) and gas per rental, and checks that every rental was
// released exactly once (one RentalReleased event per rental, every row completed and its renter
// told once, every owner and the treasury paid exactly what they were owed, the escrow empty).
// Each size runs in a process of its own (bench/release-sweep-run.ts); BENCH_SWEEP_SIZES
// (1000,10000) changes them. The 10,000 size feeds BENCH_JSON (sweep_10k_s,
// sweep_gas_per_rental); a failed check records nothing and fails the bench.
// Then a 500-release sweep with e-mails on (BENCH_SWEEP_EMAILS_SIZE; release-sweep-run.ts
// --emails: every renter and owner has an address, Resend is a local stand-in with its latency and
// 2-a-second limit): the sweep's own time, which queues the 1,000 e-mails and sends none, feeds
// sweep_500_emails_s.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { tsNodeArgs } from "../scripts/node-args";
import { recordFigures } from "./figures";

const SIZES = (process.env.BENCH_SWEEP_SIZES ?? "1000,10000").split(",").filter(Boolean).map(Number);
const EMAILS_SIZE = Number(process.env.BENCH_SWEEP_EMAILS_SIZE ?? 500);

type SweepFigures = {
  size: number;
  seedS: number;
  sweepS: number;
  runs: number;
  transactions: number;
  replaced: number;
  failed: number;
  gas: string;
  gasPerRental: number;
  problems: string[];
};

function runSize(size: number, emails: boolean): SweepFigures {
  console.log(`\nRelease sweep of ${size.toLocaleString("en")} ended rentals${emails ? ", e-mails on" : ""}:`);
  const run = spawnSync(
    process.execPath,
    tsNodeArgs("bench/release-sweep-run.ts", [String(size), ...(emails ? ["--emails"] : [])], { reactServer: true }),
    { stdio: "inherit" },
  );
  if (run.status !== 0) throw new Error(`the sweep bench at ${size} rentals failed (exit ${run.status})`);
  return JSON.parse(readFileSync(`bench-results/sweep-${size}${emails ? "-emails" : ""}.json`, "utf8"));
}

const results: SweepFigures[] = SIZES.map((size) => runSize(size, false));
const withEmails = EMAILS_SIZE > 0 ? runSize(EMAILS_SIZE, true) : null;

const n = (value: number, digits = 0) => value.toLocaleString("en", { maximumFractionDigits: digits, minimumFractionDigits: digits });
console.log("\nRelease sweep, as the cron calls it (50 rentals a transaction, 10 transactions a run), runs back to back:\n");
console.table(
  [...results, ...(withEmails ? [withEmails] : [])].map((r) => ({
    rentals: `${n(r.size)}${r === withEmails ? " (e-mails on)" : ""}`,
    "seed s": n(r.seedS, 1),
    "sweep s": n(r.sweepS, 1),
    "rentals/s": n(r.size / r.sweepS),
    runs: r.runs,
    transactions: r.transactions,
    "replaced/failed": `${r.replaced}/${r.failed}`,
    "gas total": n(Number(r.gas)),
    "gas/rental": n(r.gasPerRental),
    "released once": r.problems.length === 0 ? "yes" : r.problems.join("; "),
  })),
);

const failed = [...results, ...(withEmails ? [withEmails] : [])].filter((r) => r.problems.length > 0);
if (failed.length > 0) {
  console.error(`\nCHECK FAILED at ${failed.map((r) => n(r.size)).join(", ")} rentals: figures not recorded`);
  process.exit(1);
}
const tenThousand = results.find((r) => r.size === 10_000);
if (tenThousand) recordFigures({ sweep_10k_s: tenThousand.sweepS, sweep_gas_per_rental: tenThousand.gasPerRental });
if (withEmails?.size === 500) recordFigures({ sweep_500_emails_s: withEmails.sweepS });
