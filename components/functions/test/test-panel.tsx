"use client";

import { useState, type FormEvent } from "react";
import { Button, Card, CardBody, CardHeader, cn } from "@/components/ui";
import { useInvokeFunction, useTestFunction, type FunctionRun, type HostedFunction } from "@/lib/client/functions";
import { parseArguments, testContact } from "../model/run-input";
import { RunOutput } from "../run/run-output";
import { InvokeForm, type InvokeValues } from "./invoke-form";
import { MessageTestForm, type MessageTestValues } from "./message-test-form";
import { runBlocker } from "./run-blocker";
import { RunError } from "./run-error";

type Mode = "test" | "invoke";

const toFacts = (run: FunctionRun) => ({
  invocationId: run.invocation_id,
  versionId: run.version_id,
  status: run.status,
  result: run.result,
  error: run.error,
  logs: run.logs,
  cpu_ms: run.cpu_ms,
  duration_ms: run.duration_ms,
  sub_requests: run.sub_requests,
});

function ModeSwitch({ mode, onChange }: { mode: Mode; onChange: (mode: Mode) => void }) {
  const option = (value: Mode, label: string) => (
    <button
      type="button"
      aria-pressed={mode === value}
      onClick={() => onChange(value)}
      className={cn(
        "rounded px-2 py-1 text-xs font-medium text-slate-600 focus-visible:outline-2 focus-visible:outline-indigo-600",
        "aria-pressed:bg-white aria-pressed:text-slate-900 aria-pressed:shadow-xs",
      )}
    >
      {label}
    </button>
  );
  return (
    <div role="group" aria-label="Run with" className="inline-flex gap-1 rounded-md bg-slate-100 p-0.5">
      {option("test", "Message")}
      {option("invoke", "Arguments")}
    </div>
  );
}

/**
 * Runs the deployed version: a test (a message event from text and a contact) or an invoke (arguments
 * as JSON), then shows the run's result, error, logs and measurements. Each run is also an entry of
 * the invocation history.
 */
export function TestPanel({ projectId, fn, dirty, canWrite }: { projectId: string; fn: HostedFunction; dirty: boolean; canWrite: boolean }) {
  const [mode, setMode] = useState<Mode>("test");
  const [message, setMessage] = useState<MessageTestValues>({ text: "", contact: { id: "", phone: "", name: "" } });
  const [invoke, setInvoke] = useState<InvokeValues>({ argumentsText: "{}", contactId: "", contactPhone: "" });
  const [contactError, setContactError] = useState<{ field: "id" | "phone"; error: string } | null>(null);
  const [argumentsError, setArgumentsError] = useState<string | null>(null);
  const test = useTestFunction(projectId, fn.id);
  const call = useInvokeFunction(projectId, fn.id);
  const current = mode === "test" ? test : call;
  const blocker = runBlocker(fn, canWrite);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (blocker) return;
    if (mode === "test") {
      const contact = testContact(message.contact);
      setContactError(contact.ok ? null : { field: contact.field, error: contact.error });
      if (contact.ok) test.mutate({ text: message.text, contact: contact.value });
      return;
    }
    const args = parseArguments(invoke.argumentsText);
    setArgumentsError(args.ok ? null : args.error);
    if (!args.ok) return;
    call.mutate({ arguments: args.value, contact_id: invoke.contactId.trim() || undefined, contact_phone: invoke.contactPhone.trim() || undefined });
  };

  return (
    <Card aria-labelledby="function-run-title">
      <CardHeader
        title={<span id="function-run-title">Run</span>}
        description="Runs the deployed version and logs the run."
        actions={<ModeSwitch mode={mode} onChange={setMode} />}
      />
      <CardBody className="space-y-4">
        <form onSubmit={submit} noValidate className="space-y-4" aria-label={mode === "test" ? "Test message" : "Invoke"}>
          {mode === "test" ? (
            <MessageTestForm values={message} onChange={setMessage} contactError={contactError} />
          ) : (
            <InvokeForm functionId={fn.id} inputSchema={fn.input_schema} values={invoke} onChange={setInvoke} argumentsError={argumentsError} />
          )}
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-xs text-slate-500">{blocker ?? (dirty ? "Your edits are not deployed: the run uses the live version." : null)}</p>
            <Button
              type="submit"
              variant="primary"
              loading={current.isPending}
              disabled={Boolean(blocker)}
              data-testid={mode === "test" ? "function-test-run" : "function-invoke-run"}
            >
              {mode === "test" ? "Run test" : "Invoke"}
            </Button>
          </div>
        </form>
        <RunError error={current.error} />
        {current.data && (
          <div className="border-t border-slate-200 pt-4">
            <p role="status" className="sr-only">
              Run finished: {current.data.status === "ok" ? "OK" : "error"}
            </p>
            <RunOutput run={toFacts(current.data)} />
          </div>
        )}
      </CardBody>
    </Card>
  );
}
