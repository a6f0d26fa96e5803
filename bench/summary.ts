// The last stage of `npm run bench`: one line, BENCH_JSON={…}, with every figure of the goals'
// table (bench/figures.ts); null where no stage measured it yet.
import { benchJsonLine } from "./figures";

console.log(`\n${benchJsonLine()}`);
