"use client";

import { Tab, TabList, TabPanel, Tabs } from "@/components/ui";
import type { BusinessAgent } from "@/lib/client/agents";
import { ConnectorsPanel } from "./connectors/connectors-panel";
import { EvalRunner } from "./eval/eval-runner";
import { SettingsForm } from "./settings/settings-form";
import { SkillsEditor } from "./skills/skills-editor";
import { TestConsole } from "./test/test-console";

/** An existing agent's sections. Keyed by agent id by the caller, so every draft starts from that agent. */
export function AgentWorkspace({ projectId, agent, canWrite }: { projectId: string; agent: BusinessAgent; canWrite: boolean }) {
  return (
    <Tabs defaultValue="settings">
      <TabList label="Agent sections">
        <Tab value="settings">Settings</Tab>
        <Tab value="skills">Skills</Tab>
        <Tab value="tools">Connectors</Tab>
        <Tab value="test">Test</Tab>
        <Tab value="eval">Eval</Tab>
      </TabList>
      <TabPanel value="settings" className="pt-4">
        <SettingsForm projectId={projectId} agent={agent} canWrite={canWrite} />
      </TabPanel>
      <TabPanel value="skills" className="pt-4">
        <SkillsEditor projectId={projectId} agent={agent} canWrite={canWrite} />
      </TabPanel>
      <TabPanel value="tools" className="pt-4">
        <ConnectorsPanel projectId={projectId} agent={agent} canWrite={canWrite} />
      </TabPanel>
      <TabPanel value="test" className="pt-4">
        <TestConsole projectId={projectId} agent={agent} canWrite={canWrite} />
      </TabPanel>
      <TabPanel value="eval" className="pt-4">
        <EvalRunner projectId={projectId} agent={agent} canWrite={canWrite} />
      </TabPanel>
    </Tabs>
  );
}
