"use client";

import Link from "next/link";
import { InfoIcon, Time } from "@/components/ui";
import { projectPath } from "@/components/shell/nav-links";
import { SandboxPhone } from "@/components/sandbox/sandbox-phone";
import { useSandboxPhone } from "@/components/sandbox/use-sandbox-phone";
import type { Automation } from "@/lib/client/automations";
import { useAutomationRun, useMessageAutomations } from "@/lib/client/automations-runs";
import type { Message } from "@/lib/client/inbox";
import { RunStatusBadge } from "../run-item";
import { RunSteps } from "../runs/run-steps";
import { EvaluationView } from "../why/why-view";

const linkClass = "font-medium text-indigo-600 hover:text-indigo-500 focus-visible:outline-2 focus-visible:outline-indigo-600";

/** What the customer wrote or tapped, in one line. */
export function messageText(message: Message): string {
  const reply = message.interactive && !("body" in message.interactive) ? message.interactive : null;
  return message.content ?? (reply && "title" in reply ? reply.title : null) ?? `(${message.type} message)`;
}

/** The run the latest test message started or moved on, live, step by step. */
function LiveRun({ projectId, runId, automation }: { projectId: string; runId: string; automation: Automation | null }) {
  const run = useAutomationRun(projectId, runId);
  if (!run.data) return <p className="text-[13px] text-slate-500">{run.isError ? `Couldn't load the run: ${run.error.message}` : "Loading the run…"}</p>;
  const definition = automation && run.data.automation_id === automation.id ? automation.steps : [];
  return (
    <section aria-label="Test run" className="space-y-2">
      <div className="flex flex-wrap items-center gap-2 text-[13px]">
        <span className="font-medium text-slate-800">Run</span>
        <RunStatusBadge status={run.data.status} />
        <Link className={linkClass} href={`${projectPath(projectId, "automations/runs")}/${encodeURIComponent(runId)}`}>
          Open run
        </Link>
      </div>
      {run.data.error && (
        <p className="text-[13px] text-red-700" role="note">
          {run.data.error.message}
        </p>
      )}
      <RunSteps projectId={projectId} run={run.data} definition={definition} />
    </section>
  );
}

/** The latest customer message of the test conversation: what the evaluation decided, and the run it started. */
function LatestTest({ projectId, message, automation }: { projectId: string; message: Message; automation: Automation | null }) {
  const evaluation = useMessageAutomations(projectId, message.id);
  return (
    <div className="space-y-3" data-test-message={message.id}>
      <p className="text-[13px] text-slate-600">
        Latest test message “<span className="text-slate-900">{messageText(message)}</span>”, <Time value={message.timestamp} />
        {" · "}
        <Link className={linkClass} href={projectPath(projectId, `automations/messages/${encodeURIComponent(message.id)}`)}>
          Why did it (not) fire?
        </Link>
      </p>
      {evaluation.data ? (
        <>
          <EvaluationView projectId={projectId} evaluation={evaluation.data} />
          {evaluation.data.run_id && <LiveRun projectId={projectId} runId={evaluation.data.run_id} automation={automation} />}
        </>
      ) : evaluation.isError ? (
        <p className="text-[13px] text-red-700">Couldn&apos;t read what happened: {evaluation.error.message} Send the message again, or open the inbox.</p>
      ) : (
        <p className="text-[13px] text-slate-500">Reading what happened…</p>
      )}
    </div>
  );
}

/**
 * "Test it now" (issue 34): the sandbox phone beside the builder. The operator writes as a sandbox
 * tester; under the phone, what the evaluation decided for the latest message and the run it
 * started, followed step by step. It tests what is saved, so unsaved edits are named.
 */
export function TestPanel({ projectId, automation, dirty }: { projectId: string; automation: Automation | null; dirty: boolean }) {
  const phone = useSandboxPhone(projectId);
  const latest = [...phone.recorded.messages].reverse().find((message) => message.direction === "inbound") ?? null;
  const notes = [
    !automation && "Save the automation first: the phone talks to what is saved.",
    automation && dirty && "You have unsaved changes: the test runs the saved version.",
    automation &&
      !automation.active &&
      "This automation is off: a test message will not start it (the explanation below will say so). Switch it on to test it.",
  ].filter((note): note is string => Boolean(note));
  return (
    <section aria-label="Test it now" className="space-y-4">
      <div>
        <h2 className="text-sm font-semibold text-slate-900">Test it now</h2>
        <p className="text-[13px] text-slate-600">
          Write as a sandbox tester
          {automation?.trigger.type === "KEYWORD" && automation.trigger.keywords?.[0] ? ` (try “${automation.trigger.keywords[0]}”)` : ""}; the run appears
          below, step by step.
        </p>
      </div>
      {notes.map((note) => (
        <p key={note} className="flex items-start gap-2 rounded-md bg-amber-50 px-3 py-2 text-[13px] text-amber-900 ring-1 ring-amber-600/25">
          <InfoIcon className="mt-0.5 shrink-0 text-amber-600" />
          {note}
        </p>
      ))}
      <SandboxPhone phone={phone} />
      {latest && <LatestTest key={latest.id} projectId={projectId} message={latest} automation={automation} />}
    </section>
  );
}
