"use client";

import { useEffect, useRef, type KeyboardEvent, type ReactNode } from "react";
import { readScreen } from "@/components/flow-render/flow-json-read";
import { FlowScreenView } from "@/components/flow-render/flow-screen-view";
import { Button } from "@/components/ui/button";
import { AlertIcon, CloseIcon } from "@/components/ui/icons";
import { Spinner } from "@/components/ui/spinner";
import type { ReceivedFlowMessage } from "./received-flow";
import { useFlowRun } from "./use-flow-run";

export interface FlowSheetProps {
  projectId: string;
  channelId: string;
  from: string;
  message: ReceivedFlowMessage;
  onClose: () => void;
  /** Submits the flow with these values (the sheet closes when it resolves; a throw is shown inline). */
  onComplete: (response: Record<string, unknown>) => Promise<void>;
}

/**
 * An opened Flow, drawn over the sandbox phone's chat the way the customer's app slides it up: the
 * current screen (FlowScreenView), a close / back button where the app has them, and the data
 * endpoint's or the submission's problems inline under the screen. The dialog is named by the
 * screen's title.
 */
export function FlowSheet({ projectId, channelId, from, message, onClose, onComplete }: FlowSheetProps) {
  const run = useFlowRun({ projectId, channelId, from, message, onComplete });
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => panel.current?.focus(), []);

  const flowJson = run.flow.data?.flow_json ?? null;
  const title = (run.current && flowJson ? readScreen(flowJson, run.current.screen)?.title : null) ?? run.flow.data?.name ?? message.cta;
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape") {
      event.stopPropagation();
      onClose();
    }
  };
  const deeper = run.depth > 1;

  let content: ReactNode;
  if (run.flow.error) {
    content = (
      <Placeholder title={title}>
        <p>Couldn&apos;t open this flow: {run.flow.error.message}</p>
        <Button size="sm" onClick={() => void run.flow.refetch()}>
          Try again
        </Button>
      </Placeholder>
    );
  } else if (run.unavailable) {
    content = (
      <Placeholder title={title}>
        <p>This flow is no longer available: the business&apos;s flow is {run.unavailable}.</p>
      </Placeholder>
    );
  } else if (run.current && flowJson) {
    content = (
      <FlowScreenView
        flowJson={flowJson}
        screenId={run.current.screen}
        data={run.current.data}
        interactive={!run.busy}
        onAction={(action) => run.act(action)}
      />
    );
  } else if (run.error) {
    // The first screen never came (the data endpoint's INIT failed): the problem is shown below.
    content = (
      <Placeholder title={title}>
        <Button size="sm" onClick={() => void run.retry()}>
          Try again
        </Button>
      </Placeholder>
    );
  } else {
    content = (
      <Placeholder title={title}>
        <Spinner label="Opening the flow" />
      </Placeholder>
    );
  }

  return (
    <div className="absolute inset-0 z-20 flex flex-col bg-slate-900/40 pt-10">
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-label={title}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        className="relative flex min-h-0 flex-1 flex-col overflow-hidden rounded-t-2xl bg-white shadow-xl outline-none"
      >
        <div className="relative min-h-0 flex-1">
          {content}
          {run.busy && run.current && (
            <div className="absolute inset-0 flex items-center justify-center bg-white/60">
              <Spinner label="Waiting for the business" />
            </div>
          )}
        </div>
        {/* Over the screen's top-bar glyphs (flow-render's ScreenChrome): the app's real buttons. */}
        <SheetButton side="left" label={deeper ? "Back" : "Close"} onClick={() => (run.back() ? undefined : onClose())}>
          {deeper ? <span className="text-lg leading-none">←</span> : <CloseIcon size={16} />}
        </SheetButton>
        {deeper && (
          <SheetButton side="right" label="Close" onClick={onClose}>
            <CloseIcon size={16} />
          </SheetButton>
        )}
        {run.error && (
          <p role="alert" className="flex items-start gap-2 border-t border-red-100 bg-red-50 px-3 py-2 text-[12px] leading-4 text-red-800">
            <AlertIcon size={14} className="mt-px shrink-0" />
            <span className="min-w-0 flex-1">{run.error}</span>
          </p>
        )}
      </div>
    </div>
  );
}

function SheetButton({ side, label, onClick, children }: { side: "left" | "right"; label: string; onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      aria-label={label}
      onClick={onClick}
      className={`absolute top-2.5 ${side === "left" ? "left-3" : "right-3"} flex size-7 items-center justify-center rounded-full bg-white text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-emerald-700`}
    >
      {children}
    </button>
  );
}

/** While no screen is drawn: the same top bar as a screen, and a centred message. */
function Placeholder({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex h-full flex-col">
      <div className="flex h-12 shrink-0 items-center justify-center border-b border-slate-100 px-12">
        <p className="truncate text-[15px] font-semibold text-slate-900">{title}</p>
      </div>
      <div className="flex flex-1 flex-col items-center justify-center gap-3 px-6 text-center text-[13px] text-slate-600">{children}</div>
    </div>
  );
}
