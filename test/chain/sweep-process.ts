// One run of the release sweep in a process of its own, for the tests that SIGKILL it at a chosen
// RPC call (through test/chain/rpc-proxy.ts). Its settings come from the environment the test
// passes; argv[2] is the sweep's `now` (ISO). Prints the run's summary when it gets that far.
// Usage: node --conditions=react-server --import tsx test/chain/sweep-process.ts <now>
import { releaseEndedRentals } from "@/lib/chain/release-ended-rentals";

const summary = await releaseEndedRentals({ now: new Date(process.argv[2]), waitMs: 0 });
process.stdout.write(JSON.stringify(summary));
process.exit(0);
