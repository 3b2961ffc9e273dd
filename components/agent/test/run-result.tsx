import { Badge } from "@/components/ui";
import type { AgentTestResult } from "@/lib/client/agents";

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** The agent's reply as a chat bubble, then what produced it: skill, tool calls, handoff, trace. */
export function RunResult({ result }: { result: AgentTestResult }) {
  return (
    <div className="space-y-2" data-testid="agent-test-result">
      <div className="flex justify-start">
        <div
          className="max-w-[80%] rounded-2xl rounded-bl-sm bg-white px-3.5 py-2 text-sm text-slate-900 shadow-xs ring-1 ring-slate-200"
          data-testid="agent-reply"
        >
          {result.reply ?? <span className="text-slate-500 italic">(silent: the agent would not answer)</span>}
        </div>
      </div>
      <div className="flex flex-wrap gap-1.5 text-xs">
        {result.skill && <Badge tone="accent">skill {result.skill}</Badge>}
        {result.handoff && (
          <Badge tone="warning" dot>
            handoff
          </Badge>
        )}
      </div>
      {result.tool_calls.length > 0 && (
        <ul className="space-y-1.5" aria-label="Tool calls">
          {result.tool_calls.map((call, index) => (
            <li key={index} className="rounded-md bg-slate-50 p-2 text-xs ring-1 ring-slate-200">
              <p className="font-medium text-slate-800">
                Tool <span className="font-mono">{call.tool}</span>
                {call.error && <span className="ml-2 text-red-700">error {call.error.code}</span>}
              </p>
              <p className="mt-1 text-slate-500">Arguments</p>
              <pre className="overflow-x-auto font-mono whitespace-pre-wrap text-slate-800">{json(call.arguments)}</pre>
              {call.error ? (
                <p className="mt-1 text-red-700">{call.error.message}</p>
              ) : (
                <>
                  <p className="mt-1 text-slate-500">Result</p>
                  <pre className="overflow-x-auto font-mono whitespace-pre-wrap text-slate-800">{json(call.result)}</pre>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <details className="text-xs text-slate-600">
        <summary className="cursor-pointer select-none">Trace ({result.trace.length} steps)</summary>
        <ol className="mt-1.5 space-y-1">
          {result.trace.map((entry, index) => (
            <li key={index} className="flex gap-2">
              <Badge tone={entry.matched ? "success" : "neutral"}>{entry.step}</Badge>
              <span>{entry.detail}</span>
            </li>
          ))}
        </ol>
      </details>
    </div>
  );
}
