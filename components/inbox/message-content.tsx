"use client";

import type { Message, MessageMedia } from "@/lib/client/inbox";
import { BodyText, Labelled, Muted, type Tone } from "./message-text";
import { ContactsContent, LocationContent } from "./message-cards";
import { InteractiveContent } from "./message-interactive";
import { MediaContent, SentSticker } from "./message-media";

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
