"use client";

// Media bubbles: an image preview when the file is available, a file card otherwise, and why when it is gone.
import { useState } from "react";
import { cn } from "@/components/ui/cn";
import { AlertIcon, ExternalLinkIcon } from "@/components/ui/icons";
import type { Message, MessageMedia } from "@/lib/client/inbox";
import { formatBytes } from "./format";
import { Labelled, type Tone } from "./message-text";

export function SentSticker({ sticker, tone }: { sticker: NonNullable<Message["sticker"]>; tone: Tone }) {
  if (sticker.link) return <ImagePreview url={sticker.link} alt="Sticker" tone={tone} />;
  return <Labelled tone={tone} label="Sticker" detail={sticker.id ? `Media id ${sticker.id}` : "A sticker."} />;
}

export function MediaContent({ message, media, tone, caption }: { message: Message; media: MessageMedia | null; tone: Tone; caption: string | null }) {
  const url = media?.url && media.accessible !== false ? media.url : null;
  const kind = message.type;
  return (
    <div className="space-y-1.5">
      {url && (kind === "image" || kind === "sticker") ? (
        <ImagePreview url={url} alt={caption ?? (kind === "sticker" ? "Sticker" : "Photo")} tone={tone} />
      ) : url && kind === "video" ? (
        <video controls preload="metadata" src={url} className="max-h-64 w-full max-w-xs rounded-md bg-slate-900">
          <track kind="captions" />
        </video>
      ) : url && kind === "audio" ? (
        <audio controls preload="none" src={url} className="w-64 max-w-full" aria-label={media?.voice ? "Voice note" : "Audio"} />
      ) : null}
      {(kind === "document" || !url || kind === "video" || kind === "audio") && <FileCard media={media} kind={kind} url={url} tone={tone} />}
      {caption && <p className="text-sm leading-5 break-words whitespace-pre-wrap">{caption}</p>}
    </div>
  );
}

function ImagePreview({ url, alt, tone }: { url: string; alt: string; tone: Tone }) {
  const [broken, setBroken] = useState(false);
  if (broken) return <Unavailable tone={tone} note="The image could not be loaded. Its link may have expired; it refreshes with the next update." />;
  return (
    <a
      href={url}
      target="_blank"
      rel="noreferrer"
      className="block rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
    >
      {/* Signed, short-lived URLs from the media cache: next/image would proxy and re-cache them. */}
      {/* eslint-disable-next-line @next/next/no-img-element */}
      <img
        src={url}
        alt={alt}
        loading="lazy"
        onError={() => setBroken(true)}
        className="max-h-64 min-h-20 max-w-full min-w-20 rounded-md bg-[repeating-conic-gradient(var(--color-slate-100)_0%_25%,white_0%_50%)] bg-[length:16px_16px] object-contain ring-1 ring-black/5"
      />
    </a>
  );
}

const KIND_LABEL: Record<string, string> = { image: "Photo", sticker: "Sticker", video: "Video", audio: "Audio", document: "Document" };

function FileCard({ media, kind, url, tone }: { media: MessageMedia | null; kind: string; url: string | null; tone: Tone }) {
  const name = media?.file_name || KIND_LABEL[kind] || "File";
  const details = [media?.mime_type, formatBytes(media?.file_size)].filter(Boolean).join(" · ");
  if (!url)
    return <Unavailable tone={tone} note={media?.note ?? (media ? "The file is not available." : "No file is attached to this message.")} label={name} />;
  return (
    <a
      href={url}
      target="_blank"
      rel="noreferrer"
      className={cn(
        "flex items-center gap-2.5 rounded-md px-2.5 py-2 text-sm ring-1 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600",
        tone === "outbound" ? "bg-white/10 ring-white/25 hover:bg-white/15" : "bg-slate-50 ring-slate-200 hover:bg-slate-100",
      )}
    >
      <FileGlyph />
      <span className="min-w-0">
        <span className="block truncate font-medium">{name}</span>
        {details && <span className={cn("block truncate text-xs", tone === "outbound" ? "text-indigo-100" : "text-slate-500")}>{details}</span>}
      </span>
      <ExternalLinkIcon size={14} className="ml-auto shrink-0 opacity-70" />
    </a>
  );
}

function Unavailable({ tone, note, label }: { tone: Tone; note: string; label?: string }) {
  return (
    <div
      className={cn(
        "flex items-start gap-2 rounded-md px-2.5 py-2 text-[13px] ring-1",
        tone === "outbound" ? "bg-white/10 text-indigo-50 ring-white/25" : "bg-slate-50 text-slate-600 ring-slate-200",
      )}
    >
      <AlertIcon size={14} className="mt-0.5 shrink-0" />
      <span>
        {label && <span className="block font-medium">{label}</span>}
        {note}
      </span>
    </div>
  );
}

function FileGlyph() {
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth={1.6} aria-hidden="true" className="shrink-0 opacity-80">
      <path d="M5 2.5h6.5L15.5 6.5v11H5z" strokeLinejoin="round" />
      <path d="M11.5 2.5v4h4" strokeLinejoin="round" />
    </svg>
  );
}
