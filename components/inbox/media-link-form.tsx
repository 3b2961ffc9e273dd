"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import type { ComposedContent, MediaType } from "@/lib/client/inbox";

const TYPES: { value: MediaType; label: string }[] = [
  { value: "image", label: "Image" },
  { value: "document", label: "Document" },
  { value: "video", label: "Video" },
  { value: "audio", label: "Audio" },
];

const HTTPS = /^https:\/\/[^\s/?#]+\S*$/i;

/** A media message by link: the provider downloads the https URL, so it must be public. */
export function MediaLinkForm({ onSend, disabled }: { onSend: (content: ComposedContent) => void; disabled: boolean }) {
  const [type, setType] = useState<MediaType>("image");
  const [link, setLink] = useState("");
  const [caption, setCaption] = useState("");
  const [filename, setFilename] = useState("");
  const [touched, setTouched] = useState(false);

  const linkError = !link.trim() ? "Give the file's https:// link." : !HTTPS.test(link.trim()) ? "Must be an absolute https:// URL." : null;

  const submit = () => {
    setTouched(true);
    if (disabled || linkError) return;
    const media: { type: MediaType; link: string; caption?: string; filename?: string } = { type, link: link.trim() };
    // Audio takes no caption and only documents take a file name (the API refuses them otherwise).
    if (type !== "audio" && caption.trim()) media.caption = caption.trim();
    if (type === "document" && filename.trim()) media.filename = filename.trim();
    onSend({ media });
    setLink("");
    setCaption("");
    setFilename("");
    setTouched(false);
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      className="grid gap-3 sm:grid-cols-[9rem_1fr]"
    >
      <Field label="File type">
        <Select value={type} onChange={(event) => setType(event.target.value as MediaType)} disabled={disabled}>
          {TYPES.map((item) => (
            <option key={item.value} value={item.value}>
              {item.label}
            </option>
          ))}
        </Select>
      </Field>
      <Field
        label="File link"
        error={touched ? linkError : undefined}
        hint={touched && linkError ? undefined : "A public https:// URL the platform can download."}
      >
        <Input type="url" mono value={link} onChange={(event) => setLink(event.target.value)} placeholder="https://example.com/photo.jpg" disabled={disabled} />
      </Field>
      {type !== "audio" && (
        <Field label="Caption" optional className={type === "document" ? "" : "sm:col-span-2"}>
          <Input value={caption} maxLength={1024} onChange={(event) => setCaption(event.target.value)} disabled={disabled} />
        </Field>
      )}
      {type === "document" && (
        <Field label="File name" optional>
          <Input value={filename} maxLength={240} onChange={(event) => setFilename(event.target.value)} placeholder="invoice.pdf" disabled={disabled} />
        </Field>
      )}
      <div className="flex justify-end sm:col-span-2">
        <Button type="submit" variant="primary" disabled={disabled}>
          Send {type}
        </Button>
      </div>
    </form>
  );
}
