"use client";

import { useState, type ReactNode } from "react";
import { cn } from "@/components/ui/cn";
import { AlertIcon, ExternalLinkIcon } from "@/components/ui/icons";
import type { Message, MessageContactCard, MessageInteractive, MessageLocation, MessageMedia } from "@/lib/client/inbox";
import { formatBytes } from "./format";
import { PinGlyph } from "./glyphs";

type Tone = "inbound" | "outbound";

/** The body of one bubble: every message type readable, media previewed when the file is available. */
export function MessageContent({ message, tone }: { message: Message; tone: Tone }) {
  const text = message.content?.trim() ? message.content : null;
  if (message.status === "deleted" || message.type === "revoke") return <Muted tone={tone}>This message was deleted.</Muted>;

  switch (message.type) {
    case "text":
      return <BodyText text={text} tone={tone} />;
    case "sticker":
      // A sticker we sent is in `sticker` (id or link, as sent); one the customer sent is a file in `media`.
      return message.sticker && !message.media ? (
        <SentSticker sticker={message.sticker} tone={tone} />
      ) : (
        <MediaContent message={message} media={message.media} tone={tone} caption={text ?? captionOf(message.media)} />
      );
    case "image":
    case "video":
    case "audio":
    case "document":
      return <MediaContent message={message} media={message.media} tone={tone} caption={text ?? captionOf(message.media)} />;
    case "location":
      return <LocationContent location={message.location} name={text} tone={tone} />;
    case "contacts":
      return <ContactsContent cards={message.contacts} tone={tone} />;
    case "interactive":
      return <InteractiveContent interactive={message.interactive} direction={message.direction} text={text} tone={tone} />;
    case "reaction": {
      const emoji = message.reaction?.emoji ?? text;
      return emoji ? <Muted tone={tone}>Reacted {emoji}</Muted> : <Muted tone={tone}>Removed a reaction</Muted>;
    }
    case "template":
      return (
        <Labelled
          tone={tone}
          label="Template message"
          detail={
            message.template?.name
              ? `${message.template.name}${message.template.language ? ` (${message.template.language})` : ""}`
              : (text ?? "Sent from an approved template.")
          }
        />
      );
    case "edit":
      return (
        <>
          <BodyText text={text} tone={tone} />
          <Muted tone={tone}>Edited</Muted>
        </>
      );
    case "system":
      return <Muted tone={tone}>{text ?? "The platform sent a system notice (for example, the customer changed their number)."}</Muted>;
    case "unsupported":
      return (
        <Labelled
          tone={tone}
          label="Unsupported message"
          detail="The platform could not forward this content. Ask the customer to resend it as text or a photo."
        />
      );
    default:
      return text ? (
        <BodyText text={text} tone={tone} />
      ) : (
        <Labelled tone={tone} label={`${message.type} message`} detail="No preview for this message type." />
      );
  }
}

function captionOf(media: MessageMedia | null): string | null {
  return typeof media?.caption === "string" && media.caption.trim() ? media.caption : null;
}

function BodyText({ text, tone }: { text: string | null; tone: Tone }) {
  if (!text) return <Muted tone={tone}>(empty message)</Muted>;
  return <p className="text-sm leading-5 break-words whitespace-pre-wrap">{text}</p>;
}

function Muted({ tone, children }: { tone: Tone; children: ReactNode }) {
  return <p className={cn("text-[13px] italic", tone === "outbound" ? "text-indigo-100" : "text-slate-500")}>{children}</p>;
}

function Labelled({ tone, label, detail }: { tone: Tone; label: string; detail: ReactNode }) {
  return (
    <div className="text-sm leading-5">
      <p className={cn("text-xs font-semibold tracking-wide uppercase", tone === "outbound" ? "text-indigo-100" : "text-slate-500")}>{label}</p>
      <p className="mt-0.5 break-words whitespace-pre-wrap">{detail}</p>
    </div>
  );
}

function Caption({ tone, children }: { tone: Tone; children: ReactNode }) {
  return <p className={cn("text-xs font-semibold tracking-wide uppercase", tone === "outbound" ? "text-indigo-100" : "text-slate-500")}>{children}</p>;
}

function LocationContent({ location, name, tone }: { location: MessageLocation | null; name: string | null; tone: Tone }) {
  const title = location?.name ?? name;
  const href = location
    ? `https://www.openstreetmap.org/?mlat=${location.latitude}&mlon=${location.longitude}#map=16/${location.latitude}/${location.longitude}`
    : title
      ? `https://www.openstreetmap.org/search?query=${encodeURIComponent(title)}`
      : null;
  return (
    <div className="text-sm leading-5">
      <Caption tone={tone}>
        <PinGlyph size={12} className="mr-1 inline align-[-1px]" />
        Location
      </Caption>
      <p className="mt-0.5 font-medium break-words">{title ?? "Shared a location"}</p>
      {location?.address && <p className="break-words">{location.address}</p>}
      {location && (
        <p className={cn("text-xs tabular-nums", tone === "outbound" ? "text-indigo-100" : "text-slate-500")}>
          {location.latitude.toFixed(4)}, {location.longitude.toFixed(4)}
        </p>
      )}
      {href && (
        <a
          href={href}
          target="_blank"
          rel="noreferrer"
          className={cn("mt-1 inline-flex items-center gap-1 text-[13px] underline underline-offset-2", tone === "outbound" ? "text-white" : "text-indigo-700")}
        >
          {location ? "Open on a map" : "Find on a map"}
          <ExternalLinkIcon size={12} />
        </a>
      )}
    </div>
  );
}

function ContactsContent({ cards, tone }: { cards: MessageContactCard[] | null; tone: Tone }) {
  if (!cards?.length) return <Labelled tone={tone} label="Contact card" detail="A contact card was shared." />;
  return (
    <div className="text-sm leading-5">
      <Caption tone={tone}>{cards.length === 1 ? "Contact card" : `${cards.length} contact cards`}</Caption>
      <ul aria-label="Contact cards" className="mt-0.5 space-y-1">
        {cards.map((card, index) => {
          const phone = card.phones?.find((p) => p.phone ?? p.wa_id);
          return (
            <li key={index} className="break-words">
              <span className="font-medium">{card.name.formatted_name}</span>
              {phone && (
                <span className={cn("block text-xs", tone === "outbound" ? "text-indigo-100" : "text-slate-500")}>{phone.phone ?? `+${phone.wa_id}`}</span>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

const CHOICE = "rounded-md bg-white/15 px-2 py-1 text-center text-[13px] font-medium ring-1 ring-white/25";

function InteractiveContent({
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

function SentSticker({ sticker, tone }: { sticker: NonNullable<Message["sticker"]>; tone: Tone }) {
  if (sticker.link) return <ImagePreview url={sticker.link} alt="Sticker" tone={tone} />;
  return <Labelled tone={tone} label="Sticker" detail={sticker.id ? `Media id ${sticker.id}` : "A sticker."} />;
}

function MediaContent({ message, media, tone, caption }: { message: Message; media: MessageMedia | null; tone: Tone; caption: string | null }) {
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
