import { CheckCircleIcon, XCircleIcon, cn } from "@/components/ui";
import type { PublishReadiness } from "@/lib/client/channels";
import { describeBlocker } from "./blockers";

function Capability({ ok, label }: { ok: boolean; label: string }) {
  return (
    <li className="flex items-center gap-2 text-[13px]">
      {ok ? <CheckCircleIcon className="shrink-0 text-emerald-600" /> : <XCircleIcon className="shrink-0 text-slate-400" />}
      <span className={ok ? "text-slate-800" : "text-slate-600"}>
        {label}
        <span className="sr-only">: {ok ? "yes" : "not yet"}</span>
      </span>
    </li>
  );
}

function ProviderStatus({ label, value }: { label: string; value: string | null }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className={cn("mt-0.5 truncate font-mono text-[12px]", value ? "text-slate-800" : "text-slate-500")}>{value ?? "Not reported"}</dd>
    </div>
  );
}

/** Whether Flows and templates can go live on this channel, and what stands in the way, in plain words. */
export function PublishReadinessPanel({ readiness }: { readiness: PublishReadiness | null }) {
  if (!readiness) {
    return (
      <p className="text-[13px] text-slate-500">Flows and templates are published on business messaging (PLATFORM_A) numbers only; nothing to check here.</p>
    );
  }
  return (
    <div className="space-y-3">
      <ul className="space-y-1.5">
        <Capability ok={readiness.can_publish_flows} label="Flows can be published" />
        <Capability ok={readiness.can_submit_templates} label="Templates can be submitted" />
      </ul>
      <dl className="grid grid-cols-3 gap-3">
        <ProviderStatus label="Business" value={readiness.business_verification_status} />
        <ProviderStatus label="Account review" value={readiness.account_review_status} />
        <ProviderStatus label="Phone" value={readiness.phone_number_status} />
      </dl>
      {readiness.blockers.length > 0 && (
        <div>
          <h4 className="text-xs font-medium text-slate-500">What's in the way</h4>
          <ul className="mt-1.5 space-y-2">
            {readiness.blockers.map((code) => {
              const text = describeBlocker(code);
              return (
                <li key={code} className="rounded-md bg-slate-50 px-3 py-2 text-[13px] ring-1 ring-slate-200 ring-inset">
                  {text ? (
                    <>
                      <p className="text-slate-800">{text.problem}</p>
                      <p className="mt-0.5 text-slate-500">
                        <span className="font-medium text-slate-600">Next step:</span> {text.next}
                      </p>
                    </>
                  ) : (
                    <p className="font-mono text-[12px] text-slate-800">{code}</p>
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </div>
  );
}
