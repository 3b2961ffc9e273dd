"use client";

import type { ReactNode } from "react";
import { describeBlocker } from "@/components/channels/blockers";
import { AlertIcon, InfoIcon, Spinner, cn } from "@/components/ui";
import { isApiError } from "@/lib/client/api";
import type { Flow } from "@/lib/client/flows";
import { toFindings } from "../model/findings";

function Banner({ tone, icon, title, children }: { tone: "info" | "danger" | "warning"; icon: ReactNode; title: ReactNode; children?: ReactNode }) {
  const tones = {
    info: "bg-sky-50 text-sky-900 ring-sky-600/15",
    danger: "bg-red-50 text-red-900 ring-red-600/15",
    warning: "bg-amber-50 text-amber-900 ring-amber-600/20",
  };
  return (
    <div role={tone === "info" ? "status" : "alert"} className={cn("flex gap-3 rounded-lg px-4 py-3 text-sm ring-1 ring-inset", tones[tone])}>
      <span className="mt-0.5 shrink-0">{icon}</span>
      <div className="min-w-0 space-y-1">
        <p className="font-medium">{title}</p>
        {children}
      </div>
    </div>
  );
}

/** A refused publish: channel_not_ready lists what to fix on the channel; anything else says what the API said. */
function PublishRefused({ error }: { error: unknown }) {
  if (!error) return null;
  const blockers = isApiError(error) && Array.isArray(error.body?.blockers) ? (error.body.blockers as unknown[]).map(String) : [];
  return (
    <Banner tone="danger" icon={<AlertIcon />} title={error instanceof Error ? error.message : "Publishing was refused."}>
      {blockers.length > 0 && (
        <ul className="list-disc space-y-0.5 pl-5">
          {blockers.map((code) => {
            const text = describeBlocker(code);
            return <li key={code}>{text ? `${text.problem} ${text.next}` : code}</li>;
          })}
        </ul>
      )}
    </Banner>
  );
}

/** Where the flow stands with the provider: publishing (live), failed (why), blocked or throttled, or edited since the published version. */
export function PublishStatus({ flow, publishError }: { flow: Flow; publishError: unknown }) {
  const providerErrors = toFindings(flow.validation_errors).filter((finding) => finding.source === "provider");
  return (
    <div className="space-y-3 empty:hidden">
      <PublishRefused error={publishError} />
      {flow.meta_status === "PUBLISHING" && (
        <Banner tone="info" icon={<Spinner />} title="Publishing to the provider…">
          <p>This takes a few seconds; the status updates here on its own.</p>
        </Banner>
      )}
      {flow.meta_status === "PUBLISH_FAILED" && (
        <Banner tone="danger" icon={<AlertIcon />} title="Publishing failed">
          {flow.meta_status_reason && <p>{flow.meta_status_reason}</p>}
          {providerErrors.length > 0 && (
            <ul aria-label="Provider errors" className="list-disc space-y-0.5 pl-5">
              {providerErrors.map((finding, index) => (
                <li key={index}>
                  {finding.message}
                  {finding.lines && <span className="text-red-700"> (Flow JSON line {finding.lines.start})</span>}
                </li>
              ))}
            </ul>
          )}
          {flow.published_version !== null && <p>Customers still get version {flow.published_version}.</p>}
        </Banner>
      )}
      {(flow.meta_status === "BLOCKED" || flow.meta_status === "THROTTLED") && (
        <Banner
          tone="warning"
          icon={<AlertIcon />}
          title={flow.meta_status === "BLOCKED" ? "The provider blocked this flow" : "The provider is throttling this flow"}
        >
          <p>{flow.meta_status_reason ?? "Sends are refused until the provider reports it PUBLISHED again."}</p>
        </Banner>
      )}
      {flow.has_unpublished_changes && flow.meta_status !== "PUBLISHING" && (
        <Banner tone="info" icon={<InfoIcon />} title="Edited since it was published">
          <p>Customers get version {flow.published_version ?? "—"} until you publish again.</p>
        </Banner>
      )}
    </div>
  );
}
