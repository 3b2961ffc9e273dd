"use client";

// What the customer can answer with: the taps a business message offers, each sent back as a reply.
import { useState } from "react";
import { cn } from "@/components/ui/cn";
import { ExternalLinkIcon } from "@/components/ui/icons";
import type { BusinessMessage } from "@/lib/client/sandbox";
import { FlowCta } from "./flow-message";
import { readFlowMessage, type ReceivedFlowMessage } from "./received-flow";
import { type Obj, list, obj, str } from "./business-payload";

/** How a Flow message's button behaves: which flows this customer submitted, and opening one. */
export interface FlowHandlers {
  isSubmitted: (flowToken: string) => boolean;
  onOpen: (flow: ReceivedFlowMessage) => void;
}

export interface ReplyChoice {
  type: "button_reply" | "list_reply";
  id: string;
  title: string;
}

export interface BubbleProps {
  message: BusinessMessage;
  onReply: (choice: ReplyChoice) => void;
  disabled: boolean;
  flows: FlowHandlers;
}

/** What the customer can tap under a message: reply buttons, a list, a link button, quick replies. */
export function BusinessActions({ message, onReply, disabled, flows }: BubbleProps) {
  const body = message.body;
  const messenger = obj(body.message);
  if (messenger) {
    const quickReplies = list(messenger.quick_replies);
    if (!quickReplies.length) return null;
    return (
      <div role="group" aria-label="Quick replies" className="flex flex-wrap gap-1.5">
        {quickReplies.map((reply) => {
          const id = str(reply.payload);
          const title = str(reply.title);
          if (!id || !title) return null;
          return (
            <button
              key={id}
              type="button"
              disabled={disabled}
              onClick={() => onReply({ type: "button_reply", id, title })}
              className="rounded-full bg-white px-3 py-1 text-[12px] font-medium text-sky-700 ring-1 ring-sky-300 hover:bg-sky-50 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-50"
            >
              {title}
            </button>
          );
        })}
      </div>
    );
  }
  if (str(body.type) !== "interactive") return null;
  const part = obj(body.interactive);
  const kind = str(part?.type);
  const action = obj(part?.action);
  if (kind === "button") {
    return (
      <div role="group" aria-label="Reply buttons" className="space-y-1">
        {list(action?.buttons).map((button) => {
          const reply = obj(button.reply);
          const id = str(reply?.id);
          const title = str(reply?.title);
          if (!id || !title) return null;
          return <ChoiceButton key={id} label={title} disabled={disabled} onClick={() => onReply({ type: "button_reply", id, title })} />;
        })}
      </div>
    );
  }
  if (kind === "list") return <ListChoices action={action} onReply={onReply} disabled={disabled} />;
  if (kind === "flow") {
    const flow = readFlowMessage(message);
    return flow ? <FlowCta flow={flow} submitted={flows.isSubmitted(flow.flowToken)} disabled={disabled} onOpen={() => flows.onOpen(flow)} /> : null;
  }
  if (kind === "cta_url") {
    const parameters = obj(action?.parameters);
    return (
      <a
        href={str(parameters?.url) ?? undefined}
        target="_blank"
        rel="noreferrer"
        className="flex items-center justify-center gap-1 rounded-xl bg-white py-2 text-[13px] font-medium text-sky-700 shadow-xs ring-1 ring-slate-900/5 hover:bg-sky-50"
      >
        <ExternalLinkIcon size={12} />
        {str(parameters?.display_text) ?? "Open link"}
      </a>
    );
  }
  return null;
}

function ListChoices({ action, onReply, disabled }: { action: Obj | null; onReply: (choice: ReplyChoice) => void; disabled: boolean }) {
  const [open, setOpen] = useState(false);
  const sections = list(action?.sections);
  return (
    <div className="space-y-1">
      <ChoiceButton label={str(action?.button) ?? "Choose"} expanded={open} onClick={() => setOpen((value) => !value)} disabled={false} />
      {open && (
        <div className="rounded-xl bg-white px-2 py-1.5 shadow-xs ring-1 ring-slate-900/5">
          {sections.map((section, index) => (
            <div key={index} className="py-1">
              {str(section.title) && <p className="px-1 pb-1 text-[11px] font-semibold tracking-wide text-slate-500 uppercase">{str(section.title)}</p>}
              <ul className="space-y-1">
                {list(section.rows).map((row) => {
                  const id = str(row.id);
                  const title = str(row.title);
                  if (!id || !title) return null;
                  return (
                    <li key={id}>
                      <button
                        type="button"
                        disabled={disabled}
                        onClick={() => onReply({ type: "list_reply", id, title })}
                        className="w-full rounded-md bg-white px-2.5 py-1.5 text-left ring-1 ring-slate-200 hover:bg-sky-50 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-50"
                      >
                        <span className="block font-medium">{title}</span>
                        {str(row.description) && <span className="block text-[11px] text-slate-500">{str(row.description)}</span>}
                      </button>
                    </li>
                  );
                })}
              </ul>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

function ChoiceButton({ label, onClick, disabled, expanded }: { label: string; onClick: () => void; disabled: boolean; expanded?: boolean }) {
  return (
    <button
      type="button"
      disabled={disabled}
      aria-expanded={expanded}
      onClick={onClick}
      className={cn(
        "block w-full rounded-xl bg-white py-2 text-center text-[13px] font-medium text-sky-700 shadow-xs ring-1 ring-slate-900/5 hover:bg-sky-50 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-50",
      )}
    >
      {label}
    </button>
  );
}
