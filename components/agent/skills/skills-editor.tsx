"use client";

import { useState } from "react";
import { Button, Card, CardBody, CardHeader, ErrorState, FormError, SkeletonGroup, SkeletonRows, useToast } from "@/components/ui";
import { PlusIcon } from "@/components/ui/icons";
import { isApiError } from "@/lib/client/api";
import { useAgentConnectors, useAgentSkills, usePutAgentSkills, type BusinessAgent } from "@/lib/client/agents";
import { draftFromSkill, emptySkill, skillBody, skillIssues, type SkillDraft } from "../model/skill-draft";
import { SkillRow } from "./skill-row";

/** The agent's skills, saved as a whole (PUT /business-agents/{id}/skills). */
export function SkillsEditor({ projectId, agent, canWrite }: { projectId: string; agent: BusinessAgent; canWrite: boolean }) {
  const skills = useAgentSkills(projectId, agent.id);
  if (skills.isPending)
    return (
      <SkeletonGroup label="Loading skills">
        <SkeletonRows rows={2} columns={2} />
      </SkeletonGroup>
    );
  if (skills.isError) return <ErrorState error={skills.error} title="Couldn't load skills" onRetry={() => void skills.refetch()} />;
  return <SkillsForm projectId={projectId} agent={agent} initial={skills.data.data.map(draftFromSkill)} canWrite={canWrite} />;
}

function SkillsForm({ projectId, agent, initial, canWrite }: { projectId: string; agent: BusinessAgent; initial: SkillDraft[]; canWrite: boolean }) {
  const [drafts, setDrafts] = useState(initial);
  const connectors = useAgentConnectors(projectId, agent.id);
  const toolNames = (connectors.data ?? []).flatMap((c) => c.tools.map((t) => t.name));
  const save = usePutAgentSkills(projectId, agent.id);
  const toast = useToast();
  const issues = isApiError(save.error) ? save.error.issues : undefined;

  const submit = () =>
    save.mutate(drafts.map(skillBody), {
      onSuccess: (answer) => toast.show({ title: "Skills saved", description: `${answer.data.length} skill(s).`, tone: "success" }),
    });

  return (
    <Card>
      <CardHeader title="Skills" description="The first skill whose trigger word is in the message runs: it calls its tool and/or replies with its response." />
      <CardBody className="space-y-3">
        {drafts.length === 0 && <p className="text-sm text-slate-500">No skills yet.</p>}
        <ol className="space-y-3">
          {drafts.map((skill, index) => (
            <SkillRow
              key={index}
              index={index}
              skill={skill}
              toolNames={toolNames}
              issues={skillIssues(issues, index)}
              onChange={(next) => setDrafts((all) => all.map((s, i) => (i === index ? next : s)))}
              onRemove={() => setDrafts((all) => all.filter((_, i) => i !== index))}
            />
          ))}
        </ol>
        <FormError>{save.error ? save.error.message : null}</FormError>
        {canWrite && (
          <div className="flex flex-wrap gap-2">
            <Button icon={<PlusIcon />} onClick={() => setDrafts((all) => [...all, emptySkill()])}>
              Add skill
            </Button>
            <Button variant="primary" loading={save.isPending} onClick={submit}>
              Save skills
            </Button>
          </div>
        )}
      </CardBody>
    </Card>
  );
}
