"use client";

import { CheckIcon } from "@/components/ui/icons";
import type { ReceivedFlowMessage } from "./received-flow";

/** The Flow's call-to-action under the bubble; once the customer submitted it, a "Submitted" mark. */
export function FlowCta({ flow, submitted, disabled, onOpen }: { flow: ReceivedFlowMessage; submitted: boolean; disabled: boolean; onOpen: () => void }) {
  return (
    <div className="space-y-1">
      <button
        type="button"
        disabled={disabled || submitted}
        aria-haspopup="dialog"
        onClick={onOpen}
        className="block w-full rounded-xl bg-white py-2 text-center text-[13px] font-medium text-sky-700 shadow-xs ring-1 ring-slate-900/5 hover:bg-sky-50 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-50"
      >
        {flow.cta}
      </button>
      {submitted && (
        <p role="status" className="flex items-center justify-center gap-1 text-[11px] font-medium text-emerald-700">
          <CheckIcon size={12} />
          Submitted
        </p>
      )}
    </div>
  );
}
