// A vitest reporter that ends every run with its ten slowest test files (the wall time of each file's
// tests and hooks, and of importing it), so the suite's long poles are in every CI log, not guessed.

/** @typedef {import('vitest/node').Reporter} Reporter */
/** @typedef {import('vitest/node').TestModule} TestModule */

const shown = 10;

/** @param {number} milliseconds */
function seconds(milliseconds) {
  return `${(milliseconds / 1000).toFixed(1)} s`.padStart(8);
}

/** @implements {Reporter} */
export class SlowestTestFiles {
  /** @param {ReadonlyArray<TestModule>} testModules */
  onTestRunEnd(testModules) {
    const timed = testModules
      .map((testModule) => {
        const diagnostic = testModule.diagnostic();
        return { name: `${testModule.project.name} ${testModule.relativeModuleId}`, milliseconds: diagnostic.duration + diagnostic.collectDuration };
      })
      .sort((a, b) => b.milliseconds - a.milliseconds)
      .slice(0, shown);
    if (timed.length === 0) return;
    const lines = timed.map(({ name, milliseconds }) => `${seconds(milliseconds)}  ${name}`);
    process.stdout.write(`\nThe ${timed.length} slowest test files (tests, hooks and import):\n${lines.join('\n')}\n`);
  }
}
