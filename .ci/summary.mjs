// Prints one closing line for CI, "N passed, N failed, N skipped", from the JSON reports
// that the vitest runs of the test command leave in test-results/.
import { existsSync, readFileSync } from "node:fs";

const reports = ["test-results/vitest.json", "test-results/vitest-node22.json", "test-results/vitest-node24.json", "test-results/vitest-e2e.json"].filter(
  (path) => existsSync(path),
);
let passed = 0;
let failed = 0;
let skipped = 0;
for (const path of reports) {
  const report = JSON.parse(readFileSync(path, "utf8"));
  passed += report.numPassedTests ?? 0;
  const failedTests = report.numFailedTests ?? 0;
  failed += failedTests > 0 ? failedTests : (report.numFailedTestSuites ?? 0);
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
