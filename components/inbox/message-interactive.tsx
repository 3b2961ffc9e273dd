"use client";

// Buttons and lists, as the customer saw them (outbound) or as they answered (inbound).
import { cn } from "@/components/ui/cn";
import { ExternalLinkIcon } from "@/components/ui/icons";
import type { Message, MessageInteractive } from "@/lib/client/inbox";
import { BodyText, Caption, type Tone } from "./message-text";

const CHOICE = "rounded-md bg-white/15 px-2 py-1 text-center text-[13px] font-medium ring-1 ring-white/25";

export function InteractiveContent({
  interactive,
  direction,
  text,
  tone,
}: {
  interactive: MessageInteractive | null;
  direction: Message["direction"];
  text: string | null;
  tone: Tone;
}) {
  if (direction === "inbound" || (interactive && !("body" in interactive))) {
    // The customer tapped a reply button or list row (or submitted a form): its title, and the id we gave it.
    const reply = interactive && !("body" in interactive) ? interactive : null;
    return (
      <div className="text-sm leading-5">
        <Caption tone={tone}>Tapped a reply</Caption>
        <p className="mt-0.5 font-medium break-words">{reply?.title ?? text ?? "(a reply without a title, e.g. a completed form)"}</p>
        {reply?.id && <p className={cn("text-xs", tone === "outbound" ? "text-indigo-100" : "text-slate-500")}>id {reply.id}</p>}
      </div>
    );
  }
  if (!interactive) return <BodyText text={text} tone={tone} />;
  return (
    <div>
      <BodyText text={interactive.body} tone={tone} />
      {interactive.type === "button" && (
        <ul aria-label="Reply buttons" className="mt-2 space-y-1">
          {interactive.buttons.map((button) => (
            <li key={button.id} className={CHOICE}>
              {button.title}
            </li>
          ))}
        </ul>
      )}
      {interactive.type === "list" && (
        <div className="mt-2">
          <p className={CHOICE}>{interactive.button}</p>
          <ul aria-label="List rows" className="mt-1 space-y-0.5 text-[13px]">
            {interactive.sections
              .flatMap((section) => section.rows)
              .map((row) => (
                <li key={row.id}>
                  {row.title}
                  {row.description && <span className="text-indigo-100"> · {row.description}</span>}
                </li>
              ))}
          </ul>
        </div>
      )}
      {interactive.type === "cta_url" && (
        <a href={interactive.url} target="_blank" rel="noreferrer" className={cn(CHOICE, "mt-2 flex items-center justify-center gap-1")}>
          {interactive.display_text}
          <ExternalLinkIcon size={12} />
        </a>
      )}
      {interactive.type === "location_request_message" && <p className="mt-1 text-xs text-indigo-100">Asks the customer to share a location</p>}
      {interactive.type === "request_contact_info" && <p className="mt-1 text-xs text-indigo-100">Asks the customer for their contact details</p>}
    </div>
  );
}
