"use client";

// Location and contact cards, readable without opening a map or an address book.
import { cn } from "@/components/ui/cn";
import { ExternalLinkIcon } from "@/components/ui/icons";
import type { MessageContactCard, MessageLocation } from "@/lib/client/inbox";
import { PinGlyph } from "./glyphs";
import { Caption, Labelled, type Tone } from "./message-text";

export function LocationContent({ location, name, tone }: { location: MessageLocation | null; name: string | null; tone: Tone }) {
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

export function ContactsContent({ cards, tone }: { cards: MessageContactCard[] | null; tone: Tone }) {
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
