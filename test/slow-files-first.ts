import { BaseSequencer, type TestSpecification } from "vitest/node";

// Files that take minutes rather than seconds: started first, each on a worker of its own, so the
// rest of the suite runs beside them instead of waiting for them at the end (docs/testing.md).
// The ten dev-server restarts are most of the direct pass's time on their own.
const SLOW_FILES = ["test/embedded-default.test.ts", "test/fuzz/api-routes.fuzz.test.ts", "scripts/cli.test.ts"];

export default class SlowFilesFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = SLOW_FILES.findIndex((slow) => file.moduleId.endsWith(slow));
      return index === -1 ? SLOW_FILES.length : index;
    };
    // Array.prototype.sort is stable: the others keep the base sequencer's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
