"use client";

import { useRef } from "react";
import { PageHeader } from "@/components/ui";
import { can, useCurrentProject } from "@/lib/client/me";
import { DraftCard } from "./draft-card";
import { ExportCard } from "./export-card";
import { PreviewPanel } from "./preview-panel";
import { useConfigDraft } from "./use-config-draft";

/**
 * /projects/[id]/config: the project as a config document (docs/spec/decisions.md "Config-as-code").
 * Read and download the current one; upload or paste another, see its diff and issues, apply it.
 */
export function ConfigPage({ projectId }: { projectId: string }) {
  const { role } = useCurrentProject();
  const canWrite = can(role, "write");
  const draft = useConfigDraft(projectId);
  const draftRef = useRef<HTMLDivElement>(null);

  const editCopy = (text: string, format: "yaml" | "json") => {
    draft.load(text, undefined, format);
    draftRef.current?.scrollIntoView({ behavior: "smooth", block: "start" });
  };

  return (
    <div>
      <PageHeader
        title="Config"
        description="Config-as-code: flows, automations, the webhook and project settings as one JSON or YAML document. The same document works with the API (/config/diff, /config/apply) and the CLI (npm run svc -- config apply)."
      />
      <div className="space-y-6">
        <ExportCard projectId={projectId} onEditCopy={editCopy} />
        <div ref={draftRef} className="scroll-mt-20 space-y-4">
          <DraftCard projectId={projectId} draft={draft} />
          <PreviewPanel projectId={projectId} draft={draft} canWrite={canWrite} />
        </div>
      </div>
    </div>
  );
}
