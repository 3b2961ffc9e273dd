/** What a scenario tells: lines of what was sent, stored and delivered; failures; a few numbers for the summary. */

export interface ScenarioResult {
  name: string;
  lines: string[];
  failures: string[];
  /** One line for the summary table (sent / stored / delivered, max latency, ...). */
  summary: string;
  seconds: number;
}

export class Report {
  readonly lines: string[] = [];
  readonly failures: string[] = [];
  summary = "";

  constructor(
    readonly name: string,
    private readonly log: (m: string) => void,
  ) {}

  info(message: string): void {
    this.lines.push(message);
    this.log(`  ${message}`);
  }

  /** Records a failure unless `ok`; returns `ok`. */
  check(ok: boolean, failure: string): boolean {
    if (!ok) {
      this.failures.push(failure);
      this.log(`  FAIL: ${failure}`);
    }
    return ok;
  }

  fail(failure: string): void {
    this.check(false, failure);
  }
}

export async function runScenario(name: string, log: (m: string) => void, body: (r: Report) => Promise<void>): Promise<ScenarioResult> {
  const report = new Report(name, log);
  const started = Date.now();
  log(`── ${name}`);
  try {
    await body(report);
  } catch (error) {
    report.fail(`aborted: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  log(`── ${name}: ${report.failures.length ? `FAILED (${report.failures.length})` : "passed"} in ${seconds} s`);
  return { name, lines: report.lines, failures: report.failures, summary: report.summary, seconds };
}

export function printSummary(results: ScenarioResult[], totalSeconds: number): void {
  console.log(`\n${"=".repeat(100)}\nFAULT SUITE SUMMARY\n${"=".repeat(100)}`);
  for (const r of results) {
    console.log(`${r.failures.length ? "FAIL" : "pass"}  ${r.name.padEnd(44)} ${String(r.seconds).padStart(6)} s  ${r.summary}`);
    for (const f of r.failures) console.log(`        ✗ ${f.split("\n")[0]}`);
  }
  const failed = results.filter((r) => r.failures.length).length;
  console.log(`total ${totalSeconds} s: ${results.length - failed}/${results.length} scenarios passed`);
}

/** Milliseconds, rounded, for printing. */
export function ms(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "n/a" : `${Math.round(value)} ms`;
}
