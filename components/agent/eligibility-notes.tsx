import { AlertIcon, InfoIcon } from "@/components/ui/icons";
import { cn } from "@/components/ui";
import type { AgentEligibility } from "@/lib/client/agents";
import { describeReasons } from "./model/reasons";

/** The channel's eligibility as sentences: blockers in amber with their next step, the sandbox's note in blue. */
export function EligibilityNotes({ eligibility }: { eligibility: AgentEligibility }) {
  const reasons = describeReasons(eligibility.reasons);
  if (!reasons.length) return <p className="text-sm text-emerald-700">This channel can carry a business agent.</p>;
  return (
    <ul className="space-y-2" aria-label="Eligibility">
      {reasons.map((reason) => {
        const Icon = reason.tone === "info" ? InfoIcon : AlertIcon;
        return (
          <li
            key={reason.code}
            data-reason={reason.code}
            className={cn(
              "flex gap-2.5 rounded-md px-3 py-2.5 text-sm ring-1 ring-inset",
              reason.tone === "info" ? "bg-sky-50 text-sky-900 ring-sky-200" : "bg-amber-50 text-amber-900 ring-amber-200",
            )}
          >
            <Icon className="mt-0.5 shrink-0" />
            <div>
              <p>{reason.problem}</p>
              <p className="mt-0.5 text-[13px] opacity-80">{reason.next}</p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
