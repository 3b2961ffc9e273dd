import { cn } from "@/components/ui/cn";
import { Spinner } from "@/components/ui/spinner";
import { formatClock } from "@/components/inbox/format";
import type { SentItem } from "./customer-store";
import { DocumentGlyph, PhotoGlyph, PinGlyph, ReplyGlyph } from "@/components/inbox/glyphs";

/** A message the phone sent (right side), with whether svc's webhook endpoint took it. */
export function SentBubble({ item }: { item: SentItem }) {
  const failed = item.state === "failed";
  const refused = item.state === "sent" && item.webhookStatus !== undefined && item.webhookStatus >= 300;
  return (
    <li aria-label="Message from the customer" className="flex max-w-[85%] flex-col items-end self-end">
      <div
        className={cn(
          "rounded-2xl rounded-br-md px-3 py-2 text-[13px] leading-5 shadow-xs",
          failed ? "bg-red-50 text-red-900 ring-1 ring-red-300" : "bg-indigo-600 text-white",
        )}
      >
        <SentContent item={item} />
        <p className={cn("mt-0.5 flex items-center justify-end gap-1 text-[10px] tabular-nums", failed ? "text-red-700" : "text-indigo-100")}>
          {formatClock(item.at)}
          {item.state === "sending" && (
            <>
              <Spinner size={10} />
              <span>Sending…</span>
            </>
          )}
          {item.state === "sent" && !refused && <span>✓ Sent</span>}
        </p>
      </div>
      {failed && (
        <p role="alert" className="mt-1 max-w-full text-right text-[11px] leading-4 font-medium text-red-700">
          Not sent: {item.error ?? "the simulator refused it."}
        </p>
      )}
      {refused && <p className="mt-1 text-right text-[11px] leading-4 text-amber-700">svc's webhook endpoint answered HTTP {item.webhookStatus}.</p>}
    </li>
  );
}

function SentContent({ item }: { item: SentItem }) {
  switch (item.kind) {
    case "text":
      return <p className="break-words whitespace-pre-wrap">{item.text}</p>;
    case "image":
    case "document":
      return (
        <div>
          <p className="flex items-center gap-1 font-medium">
            {item.kind === "image" ? (
              <>
                <PhotoGlyph /> Photo
              </>
            ) : (
              <>
                <DocumentGlyph /> Document
              </>
            )}
          </p>
          <p className="text-[11px] break-all opacity-80">{item.link ?? "Sample file from the simulator"}</p>
          {item.caption && <p className="mt-0.5 break-words whitespace-pre-wrap">{item.caption}</p>}
        </div>
      );
    case "location":
      return (
        <div>
          <p className="flex items-center gap-1 font-medium">
            <PinGlyph className="shrink-0" />
            {item.location?.name ?? "Location"}
          </p>
          {item.location?.address && <p className="opacity-90">{item.location.address}</p>}
          {item.location && (
            <p className="text-[11px] opacity-80 tabular-nums">
              {item.location.latitude.toFixed(4)}, {item.location.longitude.toFixed(4)}
            </p>
          )}
        </div>
      );
    case "flow_completion":
      return <FlowCompletionContent response={item.response} />;
    case "button_reply":
    case "list_reply":
      return (
        <p className="flex items-center gap-1">
          <ReplyGlyph className="shrink-0 opacity-80" />
          {item.reply?.title}
        </p>
      );
  }
}

/** A submitted Flow: the form's values, as the customer's app sums the response message up. */
function FlowCompletionContent({ response }: { response: Record<string, unknown> | undefined }) {
  const entries = Object.entries(response ?? {}).filter(([key]) => key !== "flow_token");
  return (
    <div>
      <p className="flex items-center gap-1 font-medium">
        <DocumentGlyph className="shrink-0" /> Form submitted
      </p>
      {entries.length > 0 && (
        <dl className="mt-0.5 text-[11px] opacity-90">
          {entries.slice(0, 6).map(([key, value]) => (
            <div key={key} className="flex gap-1">
              <dt className="opacity-80">{key}:</dt>
              <dd className="min-w-0 break-words">
                {Array.isArray(value) ? value.join(", ") : typeof value === "object" ? JSON.stringify(value) : String(value)}
              </dd>
            </div>
          ))}
          {entries.length > 6 && <div className="opacity-80">and {entries.length - 6} more</div>}
        </dl>
      )}
    </div>
  );
}
