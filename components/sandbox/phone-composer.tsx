"use client";

import { useEffect, useRef, useState, type FormEvent } from "react";
import { cn } from "@/components/ui/cn";
import { CloseIcon, PlusIcon } from "@/components/ui/icons";
import type { CustomerAction } from "@/lib/client/sandbox";
import { DocumentGlyph, PhotoGlyph, PinGlyph } from "@/components/inbox/glyphs";

/** What the phone asks the page to send (the page adds channel, number and name). */
export type PhoneAction = Omit<CustomerAction, "channel_id" | "from" | "name">;

const LOCATION_PRESETS = [
  { name: "Eiffel Tower", address: "Champ de Mars, 5 Av. Anatole France, Paris", latitude: 48.8584, longitude: 2.2945 },
  { name: "Times Square", address: "Manhattan, New York, NY", latitude: 40.758, longitude: -73.9855 },
  { name: "Sydney Opera House", address: "Bennelong Point, Sydney NSW", latitude: -33.8568, longitude: 151.2153 },
  { name: "Brandenburg Gate", address: "Pariser Platz, Berlin", latitude: 52.5163, longitude: 13.3777 },
] as const;

type Panel = null | "menu" | "image" | "document";

/** The phone's input row, with a "+" menu for a sample photo, files by link and preset locations. */
export function PhoneComposer({ onSend, disabled }: { onSend: (action: PhoneAction) => void; disabled: boolean }) {
  const [text, setText] = useState("");
  const [panel, setPanel] = useState<Panel>(null);
  const menuButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!panel) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setPanel(null);
      menuButton.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [panel]);

  const send = (action: PhoneAction) => {
    onSend(action);
    setPanel(null);
  };

  const submitText = (event: FormEvent) => {
    event.preventDefault();
    if (disabled || !text.trim()) return;
    send({ type: "text", text: text.trim() });
    setText("");
  };

  return (
    <div className="relative border-t border-slate-200 bg-slate-50 p-2">
      {panel && (
        <div id="phone-more" className="absolute inset-x-2 bottom-full mb-2 rounded-xl bg-white p-2 text-[13px] shadow-lg ring-1 ring-slate-900/10">
          {panel === "menu" && <Menu disabled={disabled} onSend={send} onOpen={setPanel} />}
          {(panel === "image" || panel === "document") && <LinkForm kind={panel} disabled={disabled} onSend={send} onBack={() => setPanel("menu")} />}
        </div>
      )}
      <form onSubmit={submitText} className="flex items-center gap-1.5">
        <button
          ref={menuButton}
          type="button"
          aria-label="More message types"
          aria-expanded={panel !== null}
          aria-controls={panel ? "phone-more" : undefined}
          onClick={() => setPanel((current) => (current ? null : "menu"))}
          className="inline-flex size-9 shrink-0 items-center justify-center rounded-full text-slate-600 hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          {panel ? <CloseIcon size={18} /> : <PlusIcon size={18} />}
        </button>
        <input
          aria-label="Customer message"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="Message"
          maxLength={4096}
          className="h-9 min-w-0 flex-1 rounded-full border-0 bg-white px-3.5 text-[13px] text-slate-900 ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-indigo-600 focus:outline-none"
        />
        <button
          type="submit"
          aria-label="Send as customer"
          disabled={disabled || !text.trim()}
          className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-indigo-600 text-white hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-50"
        >
          <svg
            width="16"
            height="16"
            viewBox="0 0 20 20"
            fill="none"
            stroke="currentColor"
            strokeWidth={1.8}
            strokeLinecap="round"
            strokeLinejoin="round"
            aria-hidden="true"
          >
            <path d="M3.5 10h11M10.5 5l5 5-5 5" />
          </svg>
        </button>
      </form>
    </div>
  );
}

function Menu({ disabled, onSend, onOpen }: { disabled: boolean; onSend: (action: PhoneAction) => void; onOpen: (panel: Panel) => void }) {
  const item =
    "flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-50";
  return (
    <div className="space-y-2">
      <div>
        <button type="button" className={item} disabled={disabled} onClick={() => onSend({ type: "image" })} autoFocus>
          <PhotoGlyph size={16} className="shrink-0 self-start mt-0.5 text-slate-500" />
          <span>
            Send sample photo
            <span className="block text-[11px] text-slate-500">A small placeholder image from the simulator, no download needed.</span>
          </span>
        </button>
        <button type="button" className={item} disabled={disabled} onClick={() => onOpen("image")}>
          <PhotoGlyph size={16} className="shrink-0 text-slate-500" /> Photo by link…
        </button>
        <button type="button" className={item} disabled={disabled} onClick={() => onOpen("document")}>
          <DocumentGlyph size={16} className="shrink-0 text-slate-500" /> Document by link…
        </button>
      </div>
      <div className="border-t border-slate-100 pt-2">
        <p className="px-2 pb-1 text-[11px] font-semibold tracking-wide text-slate-500 uppercase">Share a location</p>
        <div className="grid grid-cols-2 gap-1">
          {LOCATION_PRESETS.map((place) => (
            <button
              key={place.name}
              type="button"
              disabled={disabled}
              aria-label={`Send location: ${place.name}`}
              onClick={() => onSend({ type: "location", location: { ...place } })}
              className={cn(item, "text-[12px]")}
            >
              <PinGlyph size={14} className="shrink-0 text-slate-500" /> {place.name}
            </button>
          ))}
        </div>
      </div>
    </div>
  );
}

function LinkForm({
  kind,
  disabled,
  onSend,
  onBack,
}: {
  kind: "image" | "document";
  disabled: boolean;
  onSend: (action: PhoneAction) => void;
  onBack: () => void;
}) {
  const [link, setLink] = useState("");
  const [caption, setCaption] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!URL.canParse(link.trim()) || !/^https?:/i.test(link.trim())) {
      setError("Give a full http(s) URL.");
      return;
    }
    onSend({ type: kind, media: { link: link.trim(), ...(caption.trim() ? { caption: caption.trim() } : {}) } });
  };
  const control =
    "block h-8 w-full rounded-md border-0 px-2.5 text-[13px] ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-indigo-600 focus:outline-none";
  return (
    <form onSubmit={submit} noValidate className="space-y-2 p-1">
      <p className="font-medium text-slate-900">{kind === "image" ? "Photo by link" : "Document by link"}</p>
      <label className="block">
        <span className="text-[12px] text-slate-600">File URL</span>
        <input
          autoFocus
          type="url"
          value={link}
          onChange={(event) => {
            setLink(event.target.value);
            setError(null);
          }}
          placeholder={kind === "image" ? "https://example.com/photo.jpg" : "https://example.com/menu.pdf"}
          aria-invalid={Boolean(error) || undefined}
          className={cn(control, "font-mono", error && "ring-red-400")}
        />
      </label>
      {error && (
        <p role="alert" className="text-[12px] text-red-600">
          {error}
        </p>
      )}
      <label className="block">
        <span className="text-[12px] text-slate-600">Caption (optional)</span>
        <input value={caption} maxLength={1024} onChange={(event) => setCaption(event.target.value)} className={control} />
      </label>
      <p className="text-[11px] leading-4 text-slate-500">
        The simulator downloads the file first, so the server must be able to reach the URL. Offline? Use “Send sample photo”.
      </p>
      <div className="flex justify-between gap-2">
        <button type="button" onClick={onBack} className="rounded-md px-2 py-1 text-slate-600 hover:bg-slate-100">
          Back
        </button>
        <button type="submit" disabled={disabled} className="rounded-md bg-indigo-600 px-3 py-1 font-medium text-white hover:bg-indigo-500 disabled:opacity-50">
          Send {kind === "image" ? "photo" : "document"}
        </button>
      </div>
    </form>
  );
}
