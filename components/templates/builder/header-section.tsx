"use client";

import { Card, CardBody, CardHeader, Field, Input, Select } from "@/components/ui";
import { isAuthentication, type TemplateDraft } from "../model/draft";
import { HEADER_FORMATS, HEADER_LABELS, LIMITS, MEDIA_HEADERS, type HeaderFormat } from "../model/vocabulary";
import type { SectionProps } from "./builder-props";
import { VariableExamples, VariableText } from "./variable-text";

type Header = TemplateDraft["header"];

/** HEADER: none, a text line (one variable at most), a media sample, or a location filled in at send time. */
export function HeaderSection({ draft, update, errorOf }: SectionProps) {
  const setHeader = (patch: Partial<Header>) => update((d) => ({ ...d, header: { ...d.header, ...patch } }));
  const { format } = draft.header;
  if (isAuthentication(draft)) {
    return (
      <Card>
        <CardHeader title="Header" description="Authentication templates have no header: the provider writes their text." />
      </Card>
    );
  }
  return (
    <Card>
      <CardHeader title="Header" description="Optional: a bold first line, or an image, video, document or location above the text." />
      <CardBody className="space-y-4">
        <Field label="Header type" error={errorOf("HEADER", "format")} className="sm:w-56">
          <Select value={format} onChange={(e) => setHeader({ format: e.target.value as HeaderFormat | "NONE" })}>
            {(["NONE", ...HEADER_FORMATS] as const).map((value) => (
              <option key={value} value={value}>
                {HEADER_LABELS[value]}
              </option>
            ))}
          </Select>
        </Field>
        {format === "TEXT" && (
          <>
            <VariableText
              label="Header text"
              where="header"
              value={draft.header.text}
              onChange={(text) => setHeader({ text })}
              format={draft.parameterFormat}
              maxLength={LIMITS.headerText}
              maxVariables={1}
              error={errorOf("HEADER", "text")}
              hint="One variable at most."
              placeholder="Your order is on its way"
            />
            <VariableExamples
              text={draft.header.text}
              examples={draft.header.examples}
              onChange={(examples) => setHeader({ examples })}
              error={errorOf("HEADER", "example")}
            />
          </>
        )}
        {format !== "NONE" && MEDIA_HEADERS.has(format) && (
          <Field
            label="Sample media handle"
            error={errorOf("HEADER", "example")}
            hint={`The review needs a sample ${format.toLowerCase()}: the handle the provider's resumable upload returned for it. Each send names its own file.`}
          >
            <Input value={draft.header.handle} onChange={(e) => setHeader({ handle: e.target.value })} mono autoComplete="off" spellCheck={false} />
          </Field>
        )}
        {format === "LOCATION" && <p className="text-[13px] text-slate-500">Each send gives the location (latitude, longitude, name, address).</p>}
        {errorOf("HEADER") && (
          <p role="alert" className="text-xs font-medium text-red-600">
            {errorOf("HEADER")}
          </p>
        )}
      </CardBody>
    </Card>
  );
}
