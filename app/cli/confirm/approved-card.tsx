"use client";

import type { ReactNode } from "react";
import { ButtonLink, CheckCircleIcon } from "@/components/ui";
import type { ApprovedCliCode } from "@/lib/client/cli-login";
import { findProject, useMe } from "@/lib/client/me";
import { OutcomeCard } from "./outcome-card";
import { ScopeChips } from "./scope-chips";

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-start justify-between gap-3 px-3 py-2">
      <dt className="text-slate-500">{label}</dt>
      <dd className="min-w-0 text-right font-medium text-slate-900">{children}</dd>
    </div>
  );
}

/**
 * Approved: the CLI's next poll collects the key. Its value is never shown here (only the CLI
 * receives it, once); the display id lets the operator find the key under API keys later.
 */
export function ApprovedCard({ approved }: { approved: ApprovedCliCode }) {
  const me = useMe();
  const found = findProject(me.data, approved.project_id ?? undefined);
  return (
    <OutcomeCard tone="success" icon={<CheckCircleIcon />} title="Return to your terminal">
      <p>
        Login approved. The CLI on <span className="font-mono text-[13px] text-slate-800">{approved.client_host}</span> picks up its key within a few seconds
        and says &ldquo;Logged in&rdquo;.
      </p>
      <dl className="mt-5 divide-y divide-slate-100 rounded-md text-left text-sm ring-1 ring-slate-200 ring-inset" aria-label="Approved key">
        <Row label="Project">
          {found ? (
            <>
              {found.project.name} <span className="font-normal text-slate-500">· {found.organization.name}</span>
            </>
          ) : (
            <span className="font-mono text-[13px]">{approved.project_id}</span>
          )}
        </Row>
        <Row label="Key">
          <span className="font-mono text-[13px]" data-testid="cli-key-display">
            {approved.key_display}
          </span>
        </Row>
        <Row label="Scopes">
          <ScopeChips scopes={approved.scopes ?? []} className="flex flex-wrap justify-end gap-1.5" />
        </Row>
      </dl>
      <p className="mt-4 text-xs text-slate-500">The key&rsquo;s value goes to the CLI only. You can revoke it any time under API keys.</p>
      {approved.project_id && (
        <div className="mt-5">
          <ButtonLink href={`/projects/${encodeURIComponent(approved.project_id)}/keys`} variant="secondary">
            View API keys
          </ButtonLink>
        </div>
      )}
    </OutcomeCard>
  );
}
