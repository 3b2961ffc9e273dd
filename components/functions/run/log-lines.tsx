import { cn } from "@/components/ui";
import type { FunctionLogLine } from "@/lib/client/functions";

const LEVEL_CLASSES: Record<FunctionLogLine["level"], string> = {
  log: "text-slate-700",
  info: "text-sky-700",
  debug: "text-slate-500",
  warn: "text-amber-700",
  error: "text-red-700",
};

const LEVEL_BADGE: Record<FunctionLogLine["level"], string> = {
  log: "bg-slate-100 text-slate-600",
  info: "bg-sky-50 text-sky-700",
  debug: "bg-slate-50 text-slate-500",
  warn: "bg-amber-50 text-amber-800",
  error: "bg-red-50 text-red-700",
};

/** A run's console output, one row per line: time since the run started, level (coloured, and written out), message. */
export function LogLines({ logs }: { logs: FunctionLogLine[] }) {
  if (logs.length === 0) return <p className="text-[13px] text-slate-500">No logs.</p>;
  return (
    <ol
      aria-label="Logs"
      data-testid="run-logs"
      className="max-h-72 overflow-auto rounded-md bg-slate-50 py-1.5 font-mono text-[12px] leading-5 ring-1 ring-slate-200 ring-inset"
    >
      {logs.map((line, index) => (
        <li key={index} data-level={line.level} className={cn("flex gap-2 px-3", LEVEL_CLASSES[line.level])}>
          <span className="w-14 shrink-0 text-right text-slate-500 tabular-nums">{Math.round(line.at_ms)} ms</span>
          <span className={cn("w-11 shrink-0 rounded px-1 text-center text-[11px] uppercase", LEVEL_BADGE[line.level])}>{line.level}</span>
          <span className="min-w-0 flex-1 break-words whitespace-pre-wrap">{line.message}</span>
        </li>
      ))}
    </ol>
  );
}
