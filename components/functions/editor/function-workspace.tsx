"use client";

import { PageHeader, Tab, TabList, TabPanel, Tabs } from "@/components/ui";
import { useFunctionSecrets, type FunctionDraft, type HostedFunction } from "@/lib/client/functions";
import { can, useCurrentProject } from "@/lib/client/me";
import { FunctionStatus, RuntimeLabel, TRIGGER_LABELS } from "../function-badges";
import { InvocationsPanel } from "../invocations/invocations-panel";
import { functionsPath } from "../paths";
import { SecretsPanel } from "../secrets/secrets-panel";
import { SettingsPanel } from "../settings/settings-panel";
import { TestPanel } from "../test/test-panel";
import { VersionsPanel } from "../versions/versions-panel";
import { CodeSection } from "./code-section";
import { useLeaveGuard } from "@/components/ui/use-leave-guard";
import { useSourceDraft } from "./use-source-draft";

const NO_SECRETS: readonly string[] = [];

/**
 * One function: the source editor with Save and Deploy across the page's width, the Run panel under it
 * (always mounted, so edits and the last run survive a look at the other tabs), then its runs,
 * versions, secrets and settings.
 */
export function FunctionWorkspace({ projectId, fn, saved }: { projectId: string; fn: HostedFunction; saved: FunctionDraft }) {
  const { role } = useCurrentProject();
  const canWrite = can(role, "write");
  const draft = useSourceDraft(fn, saved);
  const secrets = useFunctionSecrets(projectId, fn.id);
  const secretNames = secrets.data?.data.map((secret) => secret.name) ?? NO_SECRETS;
  useLeaveGuard(draft.unsaved);

  return (
    <div className="space-y-6" data-testid="function-workspace">
      <PageHeader
        className="mb-0"
        back={{ href: functionsPath(projectId), label: "Functions" }}
        title={fn.name}
        meta={
          <>
            <FunctionStatus fn={fn} />
            <code className="font-mono text-[12px] text-slate-600">{fn.slug}</code>
            <span className="text-[13px] text-slate-500">{TRIGGER_LABELS[fn.trigger_type]} trigger</span>
            <span className="inline-flex items-center gap-1 text-[13px] text-slate-500">
              Runtime <RuntimeLabel fn={fn} />
            </span>
          </>
        }
      />
      <CodeSection projectId={projectId} fn={fn} saved={saved} draft={draft} canWrite={canWrite} secretNames={secretNames} />
      <TestPanel projectId={projectId} fn={fn} dirty={draft.undeployed} canWrite={canWrite} />
      <Tabs defaultValue="runs">
        <TabList label="Function details">
          <Tab value="runs">Runs</Tab>
          <Tab value="versions">Versions</Tab>
          <Tab value="secrets" count={secrets.data?.data.length}>
            Secrets
          </Tab>
          <Tab value="settings">Settings</Tab>
        </TabList>
        <TabPanel value="runs">
          <InvocationsPanel projectId={projectId} functionId={fn.id} />
        </TabPanel>
        <TabPanel value="versions">
          <VersionsPanel projectId={projectId} functionId={fn.id} canWrite={canWrite} dirty={draft.undeployed} />
        </TabPanel>
        <TabPanel value="secrets">
          <SecretsPanel projectId={projectId} functionId={fn.id} canWrite={canWrite} />
        </TabPanel>
        <TabPanel value="settings">
          <SettingsPanel projectId={projectId} fn={fn} canWrite={canWrite} />
        </TabPanel>
      </Tabs>
    </div>
  );
}
