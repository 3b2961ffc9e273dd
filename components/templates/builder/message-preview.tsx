"use client";

import { CopyIcon, ExternalLinkIcon, FlowsIcon, PhoneIcon, cn } from "@/components/ui";
import type { TemplateDraft } from "../model/draft";
import { previewOf, type PreviewButton, type PreviewHeader } from "../model/preview";
import type { TextSegment } from "../model/variables";

function Segments({ segments }: { segments: TextSegment[] }) {
  return (
    <>
      {segments.map((segment, i) =>
        segment.missing ? (
          <mark key={i} className="rounded bg-amber-100 px-0.5 font-mono text-[12px] text-amber-800" title="No example value yet">
            {segment.text}
          </mark>
        ) : segment.variable !== undefined ? (
          <span key={i} className="rounded bg-emerald-50 text-emerald-900" data-variable={segment.variable}>
            {segment.text}
          </span>
        ) : (
          <span key={i}>{segment.text}</span>
        ),
      )}
    </>
  );
}

function Header({ header }: { header: PreviewHeader }) {
  if (header.kind === "text") {
    return (
      <p className="mb-1 font-semibold" data-testid="preview-header">
        <Segments segments={header.segments} />
      </p>
    );
  }
  return (
    <div
      data-testid="preview-header"
      className="mb-2 flex h-28 items-center justify-center rounded-lg bg-slate-200/80 text-xs font-medium tracking-wide text-slate-500 uppercase"
    >
      {header.kind === "location" ? "Location" : header.format.toLowerCase()}
    </div>
  );
}

const BUTTON_ICONS: Partial<Record<PreviewButton["type"], typeof CopyIcon>> = {
  URL: ExternalLinkIcon,
  PHONE_NUMBER: PhoneIcon,
  COPY_CODE: CopyIcon,
  OTP: CopyIcon,
  FLOW: FlowsIcon,
};

function Buttons({ buttons }: { buttons: PreviewButton[] }) {
  if (buttons.length === 0) return null;
  return (
    <ul aria-label="Buttons" className="mt-1 space-y-1">
      {buttons.map((button) => {
        const Icon = BUTTON_ICONS[button.type];
        return (
          <li
            key={button.key}
            className="flex items-center justify-center gap-1.5 rounded-xl bg-white py-2 text-[13px] font-medium text-sky-700 shadow-xs ring-1 ring-slate-900/5"
          >
            {Icon && <Icon size={12} />}
            {button.label}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The draft as the customer's phone shows it, redrawn on every keystroke: header, body with each
 * variable replaced by its example value (still `{{n}}`, marked, while it has none), footer, buttons.
 */
export function MessagePreview({ draft }: { draft: TemplateDraft }) {
  const preview = previewOf(draft);
  const empty = preview.body.length === 0;
  return (
    <div className="mx-auto w-full max-w-[20rem] rounded-[2.5rem] bg-slate-900 p-2.5 shadow-xl ring-1 ring-slate-900/40">
      <section aria-label="Message preview" className="relative flex h-[34rem] flex-col overflow-hidden rounded-[2rem] bg-[#ece5dd] pt-7">
        <div aria-hidden="true" className="absolute top-2 left-1/2 z-10 h-4 w-20 -translate-x-1/2 rounded-full bg-slate-900" />
        <p className="border-b border-slate-900/5 bg-white/80 px-4 py-2 text-[13px] font-semibold text-slate-800">Your business</p>
        <div className="min-h-0 flex-1 overflow-y-auto p-3">
          <div className="max-w-[92%]">
            <div
              className={cn(
                "rounded-2xl rounded-tl-md bg-white px-3 py-2 text-[13px] leading-5 break-words whitespace-pre-wrap text-slate-900 shadow-xs ring-1 ring-slate-900/5",
                empty && "text-slate-500 italic",
              )}
              data-testid="preview-bubble"
            >
              {preview.header && <Header header={preview.header} />}
              <p data-testid="preview-body">{empty ? "Your message text shows here." : <Segments segments={preview.body} />}</p>
              {preview.footer && (
                <p className="mt-1 text-[12px] text-slate-500" data-testid="preview-footer">
                  {preview.footer}
                </p>
              )}
              <p className="mt-0.5 text-right text-[10px] text-slate-500 not-italic tabular-nums">12:00</p>
            </div>
            <Buttons buttons={preview.buttons} />
          </div>
        </div>
      </section>
    </div>
  );
}
