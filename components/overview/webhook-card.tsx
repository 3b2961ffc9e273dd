"use client";

import Link from "next/link";
import { Card, CardBody, CardHeader, CodeBlock, buttonClasses } from "@/components/ui";
import type { Project } from "@/lib/client/projects";
import { SECTION_IDS, projectHref } from "./links";
import { SigningSecret } from "./signing-secret";
import { VERIFY_SNIPPET } from "./verify-snippet";
import { WebhookUrlForm } from "./webhook-url-form";

export function WebhookCard({ project, canWrite }: { project: Project; canWrite: boolean }) {
  return (
    <Card id={SECTION_IDS.webhook} aria-labelledby="webhook-heading" className="scroll-mt-20">
      <CardHeader
        title={<span id="webhook-heading">Webhook</span>}
        description="Where svc sends inbound messages and events."
        actions={
          <Link href={projectHref(project.id, "webhooks")} className={buttonClasses({ size: "sm", variant: "ghost" })}>
            Deliveries
          </Link>
        }
      />
      <CardBody className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
        <div className="space-y-5">
          <WebhookUrlForm projectId={project.id} current={project.webhook_url} canWrite={canWrite} />
          <SigningSecret projectId={project.id} secret={project.webhook_secret} signingEnabled={project.webhook_signing_enabled} canWrite={canWrite} />
        </div>
        <div className="min-w-0 space-y-1.5">
          <h3 className="text-[13px] font-medium text-slate-800">Verify signatures</h3>
          <p className="text-xs leading-5 text-slate-500">Compute the HMAC over the raw body before parsing it, and compare in constant time. Node.js:</p>
          <CodeBlock value={VERIFY_SNIPPET} label="signature check" multiline />
        </div>
      </CardBody>
    </Card>
  );
}
