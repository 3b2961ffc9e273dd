"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import {
  AlertIcon,
  Badge,
  Button,
  Card,
  CheckCircleIcon,
  ErrorState,
  InfoIcon,
  RefreshIcon,
  Skeleton,
  SkeletonGroup,
  XCircleIcon,
  buttonClasses,
  cn,
} from "@/components/ui";
import { CAPABILITY_NAMES, useReadiness, type ReadinessIssue } from "@/lib/client/projects";
import { InlineCode } from "./inline-code";
import { targetHref } from "./links";
import { CAPABILITY_LABELS, CAPABILITY_STATUS, OVERALL, guideFor, hasFriendlyGuide, type GuideContext } from "./readiness-copy";

const toneStyles = {
  danger: { tile: "bg-red-50 text-red-600 ring-red-600/15", text: "text-red-700", icon: <XCircleIcon size={22} /> },
  warning: { tile: "bg-amber-50 text-amber-600 ring-amber-600/20", text: "text-amber-800", icon: <AlertIcon size={22} /> },
  info: { tile: "bg-indigo-50 text-indigo-600 ring-indigo-600/15", text: "text-indigo-700", icon: <InfoIcon size={22} /> },
  success: { tile: "bg-emerald-50 text-emerald-600 ring-emerald-600/15", text: "text-emerald-700", icon: <CheckCircleIcon size={22} /> },
} as const;

export function ReadinessPanel({ projectId, context }: { projectId: string; context: GuideContext }) {
  const readiness = useReadiness(projectId);

  if (readiness.isPending) {
    return (
      <SkeletonGroup label="Checking readiness">
        <div className="rounded-lg bg-white p-5 ring-1 ring-slate-200">
          <div className="flex items-center gap-4">
            <Skeleton className="size-11 rounded-full" />
            <div className="flex-1 space-y-2">
              <Skeleton className="h-5 w-48" />
              <Skeleton className="h-3.5 w-80 max-w-full" />
            </div>
          </div>
          <div className="mt-5 grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
            {Array.from({ length: 5 }, (_, index) => (
              <Skeleton key={index} className="h-16" />
            ))}
          </div>
        </div>
      </SkeletonGroup>
    );
  }
  if (readiness.isError) {
    return <ErrorState error={readiness.error} title="Couldn't check readiness" onRetry={() => void readiness.refetch()} retrying={readiness.isFetching} />;
  }

  const report = readiness.data;
  const overall = OVERALL[report.overall_status];
  const style = toneStyles[overall.tone];
  const actionable = report.issues.filter((issue) => issue.severity !== "info");
  const notes = report.issues.filter((issue) => issue.severity === "info");

  return (
    <section aria-labelledby="readiness-heading" className="space-y-4">
      <Card>
        <div className="flex flex-wrap items-start gap-4 px-4 py-4 sm:px-5">
          <div className={cn("flex size-11 shrink-0 items-center justify-center rounded-full ring-1", style.tile)}>{style.icon}</div>
          <div className="min-w-0 flex-1 basis-60">
            <h2 id="readiness-heading" className="text-xs font-medium tracking-wide text-slate-500 uppercase">
              Readiness
            </h2>
            <p className={cn("mt-0.5 text-lg font-semibold tracking-tight", style.text)} data-testid="overall-status">
              {overall.label}
            </p>
            <p className="mt-0.5 text-sm text-slate-600">{overall.summary}</p>
          </div>
          <Button size="sm" variant="ghost" icon={<RefreshIcon />} loading={readiness.isFetching} onClick={() => void readiness.refetch()}>
            Check again
          </Button>
        </div>
        <ul aria-label="Capabilities" className="divide-y divide-slate-100 border-t border-slate-200">
          {CAPABILITY_NAMES.map((name) => {
            const capability = report.capabilities[name];
            if (!capability) return null;
            const status = CAPABILITY_STATUS[capability.status];
            return (
              <li key={name} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2.5 sm:flex-nowrap sm:px-5">
                <span className="w-36 shrink-0 text-[13px] font-medium text-slate-800">{CAPABILITY_LABELS[name]}</span>
                <span className="w-24 shrink-0">
                  <Badge tone={status.tone} dot>
                    {status.label}
                  </Badge>
                </span>
                <p className="min-w-0 basis-full text-xs leading-5 text-slate-500 sm:basis-auto sm:flex-1">
                  <InlineCode text={capability.message} />
                </p>
              </li>
            );
          })}
        </ul>
      </Card>

      {actionable.length > 0 && (
        <div>
          <h3 className="mb-2 text-sm font-semibold text-slate-900">What to do next</h3>
          <ul className="space-y-3">
            {actionable.map((issue, index) => (
              <li key={`${issue.code}-${index}`}>
                <IssueCard issue={issue} projectId={projectId} context={context} />
              </li>
            ))}
          </ul>
        </div>
      )}
      {notes.length > 0 && (
        <div>
          <h3 className="mb-2 text-sm font-semibold text-slate-900">Good to know</h3>
          <ul className="grid grid-cols-1 gap-3 2xl:grid-cols-2">
            {notes.map((issue, index) => (
              <li key={`${issue.code}-${index}`}>
                <IssueCard issue={issue} projectId={projectId} context={context} compact />
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

const severityStyles = {
  blocked: { border: "border-l-red-500", badge: "danger", label: "Blocker" },
  warning: { border: "border-l-amber-500", badge: "warning", label: "Warning" },
  info: { border: "border-l-sky-400", badge: "info", label: "Info" },
} as const;

function IssueCard({ issue, projectId, context, compact }: { issue: ReadinessIssue; projectId: string; context: GuideContext; compact?: boolean }) {
  const guide = guideFor(issue, context);
  const severity = severityStyles[issue.severity] ?? severityStyles.info;
  const showApiSteps = hasFriendlyGuide(issue.code) && issue.next_steps.length > 0;
  return (
    <article
      aria-label={guide.title}
      className={cn("h-full rounded-lg border-l-4 bg-white shadow-xs ring-1 ring-slate-200", severity.border, compact ? "px-4 py-3" : "px-4 py-3.5 sm:px-5")}
    >
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-3">
        <div className="min-w-0 flex-1 basis-64">
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone={severity.badge}>{severity.label}</Badge>
            <h4 className="text-sm font-semibold text-slate-900">{guide.title}</h4>
          </div>
          <p className="mt-1.5 text-sm text-slate-600">
            <InlineCode text={guide.meaning} />
          </p>
          {guide.step && (
            <p className="mt-1.5 text-sm text-slate-800">
              <span className="font-medium">Next step: </span>
              <InlineCode text={guide.step} />
            </p>
          )}
          {showApiSteps && (
            <details className="group mt-2 text-xs text-slate-500">
              <summary className="w-fit cursor-pointer rounded-sm font-medium text-slate-500 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600">
                Do it with the API
              </summary>
              <ul className="mt-1.5 list-disc space-y-1 pl-4 font-mono text-[12px] break-words text-slate-600">
                {issue.next_steps.map((step) => (
                  <li key={step}>{step}</li>
                ))}
              </ul>
            </details>
          )}
        </div>
        {guide.action && <ActionLink href={targetHref(projectId, guide.action.target)}>{guide.action.label}</ActionLink>}
      </div>
    </article>
  );
}

function ActionLink({ href, children }: { href: string; children: ReactNode }) {
  const className = buttonClasses({ size: "sm" });
  // In-page anchors stay plain links: next/link would treat them as navigations.
  if (href.startsWith("#")) {
    return (
      <a href={href} className={className}>
        {children}
      </a>
    );
  }
  return (
    <Link href={href} className={className}>
      {children}
    </Link>
  );
}
