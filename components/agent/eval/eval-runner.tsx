"use client";

import { useState } from "react";
import { Button, Card, CardBody, CardHeader, FormError, Tab, TabList, TabPanel, Tabs, Textarea } from "@/components/ui";
import { PlusIcon } from "@/components/ui/icons";
import { isApiError } from "@/lib/client/api";
import { useEvalAgent, type AgentEvalCase, type BusinessAgent } from "@/lib/client/agents";
import { buildEvalCases, draftFromCase, emptyCase, parseEvalJson, type EvalCaseDraft } from "../model/eval-cases";
import { CaseRow } from "./case-row";
import { EvalResults } from "./eval-results";

/** POST /business-agents/eval: cases edited as rows or pasted as JSON, run synchronously, scored. */
export function EvalRunner({ projectId, agent, canWrite }: { projectId: string; agent: BusinessAgent; canWrite: boolean }) {
  const [mode, setMode] = useState("rows");
  const [drafts, setDrafts] = useState<EvalCaseDraft[]>(() => [emptyCase(0)]);
  const [rowErrors, setRowErrors] = useState<Record<number, string>>({});
  const [json, setJson] = useState("");
  const [jsonError, setJsonError] = useState<string | null>(null);
  const run = useEvalAgent(projectId, agent.id);

  const send = (cases: AgentEvalCase[]) => run.mutate(cases);
  const runRows = () => {
    const built = buildEvalCases(drafts);
    setRowErrors(built.errors);
    if (!Object.keys(built.errors).length) send(built.cases);
  };
  const runJson = () => {
    const parsed = parseEvalJson(json);
    setJsonError("error" in parsed ? parsed.error : null);
    if ("cases" in parsed) send(parsed.cases);
  };
  const toRows = () => {
    const parsed = parseEvalJson(json);
    setJsonError("error" in parsed ? parsed.error : null);
    if ("cases" in parsed) {
      setDrafts(parsed.cases.map(draftFromCase));
      setMode("rows");
    }
  };
  const issues =
    isApiError(run.error) && run.error.issues ? Object.entries(run.error.issues).map(([field, messages]) => `${field}: ${messages.join(" ")}`) : [];

  return (
    <Card>
      <CardHeader title="Eval" description="Score the agent against cases (at most 50). A case with nothing to check is skipped, never passed." />
      <CardBody className="space-y-4">
        <Tabs value={mode} onValueChange={setMode}>
          <TabList label="Cases as">
            <Tab value="rows">Cases</Tab>
            <Tab value="json">Paste JSON</Tab>
          </TabList>
          <TabPanel value="rows" className="space-y-3 pt-3">
            <ol className="space-y-3">
              {drafts.map((draft, index) => (
                <CaseRow
                  key={index}
                  index={index}
                  draft={draft}
                  error={rowErrors[index]}
                  onChange={(next) => setDrafts((all) => all.map((d, i) => (i === index ? next : d)))}
                  onRemove={() => setDrafts((all) => all.filter((_, i) => i !== index))}
                />
              ))}
            </ol>
            <div className="flex flex-wrap gap-2">
              <Button icon={<PlusIcon />} onClick={() => setDrafts((all) => [...all, emptyCase(all.length)])}>
                Add case
              </Button>
              <Button variant="primary" loading={run.isPending} disabled={!canWrite || !drafts.length} onClick={runRows}>
                Run eval
              </Button>
            </div>
          </TabPanel>
          <TabPanel value="json" className="space-y-3 pt-3">
            <Textarea
              aria-label="Eval cases JSON"
              rows={10}
              className="font-mono text-xs"
              placeholder={'[{"name": "faq", "input": "opening hours?", "expect": {"contains": "9am"}}]'}
              value={json}
              onChange={(e) => setJson(e.target.value)}
            />
            <FormError>{jsonError}</FormError>
            <div className="flex flex-wrap gap-2">
              <Button onClick={toRows}>Edit as rows</Button>
              <Button variant="primary" loading={run.isPending} disabled={!canWrite || !json.trim()} onClick={runJson}>
                Run pasted eval
              </Button>
            </div>
          </TabPanel>
        </Tabs>
        <FormError>
          {run.error ? (
            <>
              {run.error.message}
              {issues.length > 0 && (
                <ul className="mt-1 list-disc pl-5">
                  {issues.map((issue) => (
                    <li key={issue}>{issue}</li>
                  ))}
                </ul>
              )}
            </>
          ) : null}
        </FormError>
        {run.data && <EvalResults result={run.data} />}
      </CardBody>
    </Card>
  );
}
