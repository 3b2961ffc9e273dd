"use client";

// What the customer's phone shows for a business message: text, media, location, interactive bodies.
import { ExternalLinkIcon } from "@/components/ui/icons";
import type { BusinessMessage } from "@/lib/client/sandbox";
import { PinGlyph } from "@/components/inbox/glyphs";
import { type Obj, list, obj, str } from "./business-payload";

export function BusinessContent({ message }: { message: BusinessMessage }) {
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

function MessengerContent({ message, fallback }: { message: Obj; fallback: string | null }) {
  const attachment = obj(message.attachment);
  const payload = obj(attachment?.payload);
  if (attachment) return <Media type={str(attachment.type) ?? "file"} part={{ link: payload?.url ?? null }} />;
  return <Text value={str(message.text) ?? fallback} />;
}
