"use client";

import { useState } from "react";
import { projectPath } from "@/components/shell/nav-links";
import { FormError, PageHeader, Tab, TabList, TabPanel, Tabs } from "@/components/ui";
import { usePublishFlow, type Flow } from "@/lib/client/flows";
import { can, useCurrentProject } from "@/lib/client/me";
import { DispatchesTable } from "../activity/dispatches-table";
import { SubmissionsTable } from "../activity/submissions-table";
import { Builder } from "../builder/builder";
import { FlowStatusBadge, MetaStatusBadge } from "../flow-badges";
import { EditorActions } from "./editor-actions";
import type { GateInput } from "./gates";
import { JsonTab } from "./json-tab";
import { EditorPreview } from "./editor-preview";
import { PublishLocation } from "./publish-location";
import { PublishStatus } from "./publish-status";
import { SaveState } from "./save-state";
import { useEditorGuards } from "./use-editor-guards";
import { useFlowEditor } from "./use-flow-editor";
import { ValidationSummary } from "./validation-summary";

/** The Flow editor: builder or Flow JSON beside a live phone preview, findings in place, save and publish, and the flow's dispatches and submissions. */
export function FlowEditor({ projectId, flow }: { projectId: string; flow: Flow }) {
  const { role } = useCurrentProject();
  const canWrite = can(role, "write");
  const editor = useFlowEditor(projectId, flow);
  const publish = usePublishFlow(projectId, flow.id);
  const [tab, setTab] = useState(editor.mode === "draft" ? "builder" : "json");
  const [selectedUid, setSelectedUid] = useState<string | null>(editor.working?.screens[0]?.uid ?? null);
  const readOnly = !canWrite || flow.status === "DEPRECATED";
  const gate: GateInput = { flow, dirty: editor.dirty, findings: editor.findings, canWrite };
  useEditorGuards({ dirty: editor.dirty, onSave: () => !readOnly && editor.save() });

  const show = (elementId: string | null) => {
    if (!elementId) return;
    setTab("builder");
    // After the builder tab has rendered.
    requestAnimationFrame(() => {
      const element = document.getElementById(elementId);
      element?.scrollIntoView({ block: "center", behavior: "smooth" });
      element?.focus({ preventScroll: true });
    });
  };

  const preview = <EditorPreview flow={flow} editor={editor} selectedUid={selectedUid} onSelect={setSelectedUid} />;
  return (
    <div className="space-y-5">
      <PageHeader
        className="mb-0"
        back={{ href: projectPath(projectId, "flows"), label: "Flows" }}
        title={flow.name}
        description={flow.description ?? undefined}
        meta={
          <>
            <FlowStatusBadge status={flow.status} />
            <span className="inline-flex items-center gap-1.5 text-[13px] text-slate-500">
              Provider <MetaStatusBadge status={flow.meta_status} reason={flow.meta_status_reason} />
            </span>
            {flow.published_version !== null && <span className="text-[13px] text-slate-500">Version {flow.published_version}</span>}
            {flow.config_key && (
              <code className="font-mono text-[12px] text-slate-600">
                {flow.config_key}
                {flow.locale ? ` · ${flow.locale}` : ""}
              </code>
            )}
            <SaveState dirty={editor.dirty} saving={editor.saving} />
          </>
        }
        actions={<EditorActions projectId={projectId} flow={flow} gate={gate} saving={editor.saving} onSave={editor.save} publish={publish} />}
      />
      <FormError>{editor.saveError}</FormError>
      <PublishLocation projectId={projectId} flow={flow} />
      <PublishStatus flow={flow} publishError={publish.error} />
      <ValidationSummary
        findings={editor.findings}
        onShow={editor.mode === "draft" ? (finding) => show(editor.locate(finding)) : undefined}
        canShow={(finding) => editor.locate(finding) !== null}
      />
      <Tabs value={tab} onValueChange={setTab}>
        <TabList label="Flow editor">
          <Tab value="builder" disabled={editor.mode !== "draft"}>
            Builder
          </Tab>
          <Tab value="json">Flow JSON</Tab>
          <Tab value="dispatches">Dispatches</Tab>
          <Tab value="submissions">Submissions</Tab>
        </TabList>
        <TabPanel value="builder" className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
          {editor.working && (
            <Builder
              draft={editor.working}
              change={editor.setWorking}
              placed={editor.placed}
              readOnly={readOnly}
              selectedUid={selectedUid}
              onSelect={setSelectedUid}
            />
          )}
          <div className="lg:sticky lg:top-4">{preview}</div>
        </TabPanel>
        <TabPanel value="json" className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
          <JsonTab flowId={flow.id} editor={editor} hasCompiled={Boolean(flow.flow_json)} readOnly={readOnly} />
          <div className="lg:sticky lg:top-4">{preview}</div>
        </TabPanel>
        <TabPanel value="dispatches">
          <DispatchesTable projectId={projectId} flowId={flow.id} />
        </TabPanel>
        <TabPanel value="submissions">
          <SubmissionsTable projectId={projectId} flowId={flow.id} />
        </TabPanel>
      </Tabs>
    </div>
  );
}
