import type { FriendlyIssue, IssueSeverity } from "./types";
import type { Requirement } from "./requirements";

/**
 * A FriendlyIssue plus which path it stops: `blocksSandbox` (testers' messages cannot reach the
 * integration) and `blocksProduction` (the dedicated channel cannot). Neither is on the wire.
 */
export interface Finding extends FriendlyIssue {
  blocksSandbox: boolean;
  blocksProduction: boolean;
}

type FindingInput = Omit<Finding, "blocksSandbox" | "blocksProduction"> & Partial<Pick<Finding, "blocksSandbox" | "blocksProduction">>;

/** What the checks write to, in check order. */
export interface Report {
  findings: Finding[];
  requirements: Requirement[];
  issue(finding: FindingInput): void;
  require(...names: Requirement[]): void;
}

export function newReport(): Report {
  const report: Report = {
    findings: [],
    requirements: [],
    issue: (finding) => void report.findings.push({ blocksSandbox: false, blocksProduction: false, ...finding }),
    require: (...names) => void report.requirements.push(...names),
  };
  return report;
}

const SEVERITY_RANK: Record<IssueSeverity, number> = { blocked: 0, warning: 1, info: 2 };

/** Severity first; within it what stops the sandbox, then production, then the rest. */
function rank(f: Finding): number {
  return SEVERITY_RANK[f.severity] * 3 + (f.blocksSandbox ? 0 : f.blocksProduction ? 1 : 2);
}

/**
 * issues: most important first: severity blocked, warning, info; within a severity, issues that
 * stop the sandbox, then production, then the rest; then check order.
 */
export function orderFindings(findings: Finding[]): Finding[] {
  return findings
    .map((finding, index) => ({ finding, index }))
    .sort((a, b) => rank(a.finding) - rank(b.finding) || a.index - b.index)
    .map(({ finding }) => finding);
}

/** The wire FriendlyIssue: the path flags dropped. */
export function toIssue({ blocksSandbox: _s, blocksProduction: _p, ...wire }: Finding): FriendlyIssue {
  return wire;
}
