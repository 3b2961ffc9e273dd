import { Badge, type BadgeTone } from "@/components/ui";
import type { AgentEvalResult } from "@/lib/client/agents";
import { caseOutcome, checkOutcome, type CheckOutcome } from "../model/eval-cases";

const TONE: Record<CheckOutcome, BadgeTone> = { passed: "success", failed: "danger", skipped: "neutral" };

/** The eval's score, then each case with its outcome and every check's detail. */
export function EvalResults({ result }: { result: AgentEvalResult }) {
  const score = result.score === null ? "—" : `${Math.round(result.score * 100)}%`;
  return (
    <section aria-label="Eval results" className="space-y-3">
      <div className="flex flex-wrap items-baseline gap-3">
        <p className="text-2xl font-semibold text-slate-900" data-testid="eval-score">
          {score}
        </p>
        <p className="text-sm text-slate-600">
          {result.passed} passed · {result.failed} failed · {result.skipped} skipped
        </p>
      </div>
      <ul className="space-y-2">
        {result.cases.map((evalCase, index) => {
          const outcome = caseOutcome(evalCase);
          return (
            <li
              key={index}
              className="rounded-md p-3 ring-1 ring-slate-200"
              data-testid="eval-case"
              data-outcome={outcome}
              aria-label={`Case ${evalCase.name}: ${outcome}`}
            >
              <div className="flex items-center gap-2">
                <Badge tone={TONE[outcome]} dot>
                  {outcome}
                </Badge>
                <span className="text-sm font-medium text-slate-900">{evalCase.name}</span>
              </div>
              {evalCase.checks.length === 0 ? (
                <p className="mt-1.5 text-xs text-slate-500">No expectation to check: skipped.</p>
              ) : (
                <ul className="mt-1.5 space-y-1">
                  {evalCase.checks.map((check, i) => (
                    <li key={i} className="flex flex-wrap items-center gap-2 text-xs">
                      <Badge tone={TONE[checkOutcome(check)]}>{check.check}</Badge>
                      <span className="text-slate-700">{check.detail}</span>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
