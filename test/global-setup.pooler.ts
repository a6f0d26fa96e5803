// The pooler pass's setup (vitest.pooler.config.ts): global-setup.ts with the suites' DATABASE_URL
// through PgBouncer in transaction mode.
import { setupSuite } from "./global-setup";

export default function setup() {
  return setupSuite({ throughPooler: true });
}
