"use client";

import { useState } from "react";
import { cn } from "@/components/ui/cn";
import { ExternalLinkIcon } from "@/components/ui/icons";
import type { BusinessMessage } from "@/lib/client/sandbox";
import { formatClock } from "@/components/inbox/format";
import { PinGlyph } from "@/components/inbox/glyphs";
import { FlowCta } from "./flow-message";
import { readFlowMessage, type ReceivedFlowMessage } from "./received-flow";

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj | null => (value && typeof value === "object" && !Array.isArray(value) ? (value as Obj) : null);
const str = (value: unknown): string | null => (typeof value === "string" && value ? value : null);
const list = (value: unknown): Obj[] => (Array.isArray(value) ? value.map(obj).filter((item): item is Obj => item !== null) : []);

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

/**
 * A message the business sent, as the customer's phone shows it. `body` is the provider request the
 * simulator received (PLATFORM_A Cloud API shape, or the Send API shape on PLATFORM_B/C). Reply
 * buttons, list rows and quick replies are tappable and answer with `onReply`; a Flow's button opens it with `flows.onOpen`.
 */
export function BusinessBubble({ message, onReply, disabled, flows }: BubbleProps) {
  return (
    <li aria-label="Message from the business" className="flex max-w-[85%] flex-col items-stretch gap-1 self-start">
      <div className="rounded-2xl rounded-bl-md bg-white px-3 py-2 text-[13px] leading-5 text-slate-900 shadow-xs ring-1 ring-slate-900/5">
        <BusinessContent message={message} />
        <p className="mt-0.5 text-right text-[10px] text-slate-500 tabular-nums">{formatClock(message.sent_at)}</p>
      </div>
      <BusinessActions message={message} onReply={onReply} disabled={disabled} flows={flows} />
    </li>
  );
}

interface BubbleProps {
  message: BusinessMessage;
  onReply: (choice: ReplyChoice) => void;
  disabled: boolean;
  flows: FlowHandlers;
}

/** What the customer can tap under a message: reply buttons, a list, a link button, quick replies. */
function BusinessActions({ message, onReply, disabled, flows }: BubbleProps) {
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

function BusinessContent({ message }: { message: BusinessMessage }) {
  const body = message.body;
  // PLATFORM_B / PLATFORM_C: {message: {text, attachment?, quick_replies?}} or a reaction.
  const messenger = obj(body.message);
  if (messenger) return <MessengerContent message={messenger} fallback={message.text} />;

  const type = str(body.type) ?? message.type;
  const part = obj(body[type]);
  switch (type) {
    case "text":
      return <Text value={str(part?.body) ?? message.text} />;
    case "image":
    case "sticker":
    case "video":
    case "audio":
    case "document":
      return <Media type={type} part={part} />;
    case "location":
      return <Location part={part} />;
    case "interactive":
      return <Interactive part={part} />;
    case "template":
      return (
        <p>
          <span className="block text-[11px] font-semibold tracking-wide text-slate-500 uppercase">Template</span>
          {str(part?.name) ?? message.text ?? "A template message"}
        </p>
      );
    case "reaction":
      return <p className="italic text-slate-600">Reacted {str(part?.emoji) ?? "(removed)"}</p>;
    case "contacts":
      return (
        <p>
          <span className="block text-[11px] font-semibold tracking-wide text-slate-500 uppercase">Contact card</span>
          {list(body.contacts)
            .map((card) => str(obj(card.name)?.formatted_name))
            .filter(Boolean)
            .join(", ") || "A contact"}
        </p>
      );
    default:
      return <Text value={message.text ?? `(${type} message)`} />;
  }
}

function Text({ value }: { value: string | null }) {
  return <p className="break-words whitespace-pre-wrap">{value ?? ""}</p>;
}

function Media({ type, part }: { type: string; part: Obj | null }) {
  const link = str(part?.link);
  const caption = str(part?.caption);
  const filename = str(part?.filename);
  return (
    <div className="space-y-1">
      {link && (type === "image" || type === "sticker") ? (
        <a href={link} target="_blank" rel="noreferrer" className="block">
          {/* eslint-disable-next-line @next/next/no-img-element */}
          <img src={link} alt={caption ?? "Photo from the business"} className="max-h-48 min-h-16 max-w-full min-w-16 rounded-lg bg-slate-100 object-contain" />
        </a>
      ) : (
        <a
          href={link ?? undefined}
          target="_blank"
          rel="noreferrer"
          className="flex items-center gap-2 rounded-lg bg-slate-50 px-2.5 py-2 ring-1 ring-slate-200 hover:bg-slate-100"
        >
          <span className="text-[11px] font-semibold tracking-wide text-slate-500 uppercase">{type}</span>
          <span className="min-w-0 truncate">{filename ?? (link ? new URL(link, "https://x").pathname.split("/").pop() : null) ?? "file"}</span>
          {link && <ExternalLinkIcon size={12} className="ml-auto shrink-0" />}
        </a>
      )}
      {caption && <Text value={caption} />}
    </div>
  );
}

function Location({ part }: { part: Obj | null }) {
  const latitude = typeof part?.latitude === "number" ? part.latitude : null;
  const longitude = typeof part?.longitude === "number" ? part.longitude : null;
  return (
    <div>
      <p className="flex items-center gap-1 font-medium">
        <PinGlyph className="shrink-0 text-slate-500" />
        {str(part?.name) ?? "Location"}
      </p>
      {str(part?.address) && <p className="text-slate-600">{str(part?.address)}</p>}
      {latitude !== null && longitude !== null && (
        <a
          href={`https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=16/${latitude}/${longitude}`}
          target="_blank"
          rel="noreferrer"
          className="text-indigo-700 underline underline-offset-2"
        >
          {latitude.toFixed(4)}, {longitude.toFixed(4)}
        </a>
      )}
    </div>
  );
}

function Interactive({ part }: { part: Obj | null }) {
  const kind = str(part?.type);
  const header = obj(part?.header);
  const bodyText = str(obj(part?.body)?.text);
  const footer = str(obj(part?.footer)?.text);
  return (
    <div>
      {str(header?.text) && <p className="font-semibold">{str(header?.text)}</p>}
      {bodyText && <Text value={bodyText} />}
      {footer && <p className="mt-0.5 text-[11px] text-slate-500">{footer}</p>}
      {kind === "location_request_message" && <p className="mt-1 text-[12px] text-slate-500">Answer with a location from the + menu.</p>}
      {kind === "request_contact_info" && <p className="mt-1 text-[12px] text-slate-500">The business asks for your contact info.</p>}
    </div>
  );
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

function MessengerContent({ message, fallback }: { message: Obj; fallback: string | null }) {
  const attachment = obj(message.attachment);
  const payload = obj(attachment?.payload);
  if (attachment) return <Media type={str(attachment.type) ?? "file"} part={{ link: payload?.url ?? null }} />;
  return <Text value={str(message.text) ?? fallback} />;
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
