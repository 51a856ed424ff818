const fs = require('node:fs');
const path = require('node:path');

/**
 * After Jest's own summary: the time each project's files took (summed over files, so with
 * several workers it is more than the wall time), the slowest files, and one plain closing line,
 * `N passed, N failed, N skipped`. Every file's time is written to .tmp/test-times.json (issue 35:
 * where the suite's time goes).
 */
class SummaryReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    this.files = [];
    this.startedAt = Date.now();
  }

  onTestResult(test, result) {
    const project = test.context.config.displayName?.name ?? 'default';
    const seconds = (result.perfStats.end - result.perfStats.start) / 1000;
    this.files.push({ project, file: path.relative(this.rootDir, result.testFilePath), seconds, tests: result.numPassingTests + result.numFailingTests });
  }

  onRunComplete(_contexts, results) {
    const wall = (Date.now() - this.startedAt) / 1000;
    const byProject = new Map();
    for (const f of this.files) {
      const p = byProject.get(f.project) ?? { seconds: 0, files: 0, tests: 0 };
      p.seconds += f.seconds;
      p.files += 1;
      p.tests += f.tests;
      byProject.set(f.project, p);
    }
    const lines = [...byProject].map(([name, p]) => `  ${name}: ${p.files} files, ${p.tests} tests, ${p.seconds.toFixed(0)} s`);
    const slowest = [...this.files].sort((a, b) => b.seconds - a.seconds).slice(0, 10);
    lines.push('  slowest files:', ...slowest.map((f) => `    ${f.seconds.toFixed(1).padStart(6)} s  ${f.project}  ${f.file}`));
    process.stdout.write(`\ntest time: ${wall.toFixed(0)} s wall\n${lines.join('\n')}\n`);
    try {
      const dir = path.join(this.rootDir, '.tmp');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'test-times.json'), JSON.stringify({ wallSeconds: wall, files: this.files }, null, 2));
    } catch {
      // Only a report: a read-only checkout still gets the summary above.
    }
    const skipped = results.numPendingTests + results.numTodoTests;
    process.stdout.write(`\njest: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`);
  }
}
module.exports = SummaryReporter;
