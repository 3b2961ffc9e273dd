"use client";

import Link from "next/link";
import { Card, CardBody, CardHeader, CopyButton, PhoneIcon, Skeleton, buttonClasses } from "@/components/ui";
import type { Project } from "@/lib/client/projects";
import { SECTION_IDS, projectHref } from "./links";

export function SandboxCard({ project, sandboxNumber, numberLoading }: { project: Project; sandboxNumber: string | null; numberLoading: boolean }) {
  const testers = project.participant_count;
  return (
    <Card id={SECTION_IDS.sandbox} aria-labelledby="sandbox-heading" className="scroll-mt-20">
      <CardHeader title={<span id="sandbox-heading">Sandbox</span>} description="Test on a shared WhatsApp number before you connect your own." />
      <CardBody className="space-y-4">
        <div>
          <p className="text-[13px] font-medium text-slate-800" id="join-code-label">
            Join code
          </p>
          <div className="mt-1.5 flex items-center gap-2">
            <code
              aria-labelledby="join-code-label"
              data-testid="join-code"
              className="rounded-md bg-slate-50 px-3 py-1.5 font-mono text-2xl font-semibold tracking-wider text-slate-900 ring-1 ring-slate-200 ring-inset"
            >
              {project.join_code}
            </code>
            <CopyButton value={`join ${project.join_code}`} label="join message" size="md" variant="secondary" />
          </div>
        </div>
        <p className="text-sm text-slate-600">
          From WhatsApp, send <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[13px] text-slate-800">join {project.join_code}</code> to the
          sandbox number{" "}
          {numberLoading ? (
            <Skeleton className="inline-block h-3.5 w-28 align-middle" />
          ) : (
            <span className="font-medium whitespace-nowrap text-slate-900">{sandboxNumber ?? "shown on the Channels page"}</span>
          )}
          . Only testers who join can message this project on the sandbox.
        </p>
        <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 pt-4">
          <p className="text-sm text-slate-600" data-testid="tester-count">
            {testers === 0 ? "Nobody has joined yet." : `${testers} ${testers === 1 ? "tester has" : "testers have"} joined.`}
          </p>
          <Link href={projectHref(project.id, "sandbox")} className={buttonClasses({ size: "sm" })}>
            <PhoneIcon />
            Open Sandbox phone
          </Link>
        </div>
      </CardBody>
    </Card>
  );
}
