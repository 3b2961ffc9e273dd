"use client";

import { useState, type FormEvent } from "react";
import { Button, Card, CardBody, CardHeader, FormError, Input } from "@/components/ui";
import { useTestAgent, type AgentTestResult, type BusinessAgent } from "@/lib/client/agents";
import { RunResult } from "./run-result";

interface Exchange {
  input: string;
  result: AgentTestResult;
}

/** POST /business-agents/test: type what a customer would, see what the agent would do. Nothing is sent to anyone. */
export function TestConsole({ projectId, agent, canWrite }: { projectId: string; agent: BusinessAgent; canWrite: boolean }) {
  const [input, setInput] = useState("");
  const [log, setLog] = useState<Exchange[]>([]);
  const test = useTestAgent(projectId, agent.id);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = input.trim();
    if (!text) return;
    test.mutate(text, {
      onSuccess: (result) => {
        setLog((all) => [...all, { input: text, result }]);
        setInput("");
      },
    });
  };

  return (
    <Card>
      <CardHeader
        title="Test console"
        description="A dry run of the agent on one message: tools run (flows are only reported), nothing is sent."
        actions={
          log.length > 0 && (
            <Button size="sm" variant="ghost" onClick={() => setLog([])}>
              Clear
            </Button>
          )
        }
      />
      <CardBody className="space-y-4">
        <ol className="space-y-4 rounded-md bg-slate-50 p-3" aria-label="Test conversation">
          {log.length === 0 && <li className="text-sm text-slate-500">Try a FAQ question, a skill's trigger word, or a handoff keyword.</li>}
          {log.map((exchange, index) => (
            <li key={index} className="space-y-2">
              <div className="flex justify-end">
                <div className="max-w-[80%] rounded-2xl rounded-br-sm bg-indigo-600 px-3.5 py-2 text-sm text-white">{exchange.input}</div>
              </div>
              <RunResult result={exchange.result} />
            </li>
          ))}
        </ol>
        <form onSubmit={submit} className="flex gap-2">
          <Input aria-label="Test message" placeholder="Message the agent…" value={input} onChange={(e) => setInput(e.target.value)} disabled={!canWrite} />
          <Button type="submit" variant="primary" loading={test.isPending} disabled={!canWrite || !input.trim()}>
            Send test
          </Button>
        </form>
        <FormError>{test.error?.message}</FormError>
      </CardBody>
    </Card>
  );
}
