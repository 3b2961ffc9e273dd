"use client";

import { describeBlocker } from "@/components/channels/blockers";
import { Card, CardBody, CardHeader, Field, Input, Select } from "@/components/ui";
import type { Channel } from "@/lib/client/channels";
import { templateNameProblem } from "@/lib/shared/templates/request";
import { canSubmitTemplates, channelLabel } from "../model/channels";
import { withCategory } from "../model/draft";
import { CATEGORIES, CATEGORY_LABELS, PARAMETER_FORMATS, type ParameterFormat, type TemplateCategory } from "../model/vocabulary";
import type { SectionProps } from "./builder-props";

// Common provider language codes; any other code can be typed.
const LANGUAGES = ["en_US", "en_GB", "en", "es", "es_MX", "pt_BR", "fr", "de", "it", "nl", "id", "hi", "ar", "tr"];

const CATEGORY_HINTS: Record<TemplateCategory, string> = {
  UTILITY: "About something the customer did or asked for: an order, a booking, an account change.",
  MARKETING: "Offers, news and invitations. Counted and priced as marketing by the provider.",
  AUTHENTICATION: "One-time codes. The provider writes the text; you choose the code button.",
};

const FORMAT_LABELS: Record<ParameterFormat, string> = {
  POSITIONAL: "Positional: {{1}}, {{2}}, …",
  NAMED: "Named: {{first_name}}, …",
};

function SelectedChannelBlockers({ channel }: { channel: Channel | undefined }) {
  if (!channel || canSubmitTemplates(channel)) return null;
  const blockers = channel.publish_readiness?.blockers ?? [];
  return (
    <ul className="mt-1.5 list-disc space-y-0.5 pl-5 text-xs leading-5 text-amber-800" data-testid="selected-channel-blockers">
      {blockers.length === 0 && <li>The provider has not reported this number as ready to submit templates yet.</li>}
      {blockers.map((code) => {
        const text = describeBlocker(code);
        return <li key={code}>{text ? `${text.problem} ${text.next}` : code}</li>;
      })}
    </ul>
  );
}

/** Channel, name, language, category and parameter format: the template's identity at the provider. */
export function DetailsSection({ draft, update, errorOf, candidates, nextKey }: SectionProps & { candidates: readonly Channel[]; nextKey: () => string }) {
  // Said as it is typed: the server's own rule and words.
  const nameProblem = draft.name ? templateNameProblem(draft.name) : undefined;
  const selected = candidates.find((channel) => channel.id === draft.channelId);
  return (
    <Card>
      <CardHeader title="Details" description="A template is one name in one language on one number; each language is reviewed on its own." />
      <CardBody className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Channel"
          className="sm:col-span-2"
          error={errorOf(null, "channel_id")}
          hint="Your own business messaging (PLATFORM_A) numbers; the shared sandbox can't submit templates."
        >
          <Select value={draft.channelId} onChange={(e) => update((d) => ({ ...d, channelId: e.target.value }))} disabled={candidates.length === 0}>
            {candidates.length === 0 && <option value="">No dedicated business messaging (PLATFORM_A) channel</option>}
            {candidates.map((channel) => (
              <option key={channel.id} value={channel.id}>
                {channelLabel(channel)}
                {canSubmitTemplates(channel) ? "" : " (not ready)"}
              </option>
            ))}
          </Select>
        </Field>
        {selected && !canSubmitTemplates(selected) && (
          <div className="-mt-2 sm:col-span-2">
            <SelectedChannelBlockers channel={selected} />
          </div>
        )}
        <Field label="Name" error={nameProblem ?? errorOf(null, "name")} hint="Lower-case letters, digits and _.">
          <Input
            value={draft.name}
            onChange={(e) => update((d) => ({ ...d, name: e.target.value }))}
            placeholder="order_update"
            mono
            maxLength={512}
            autoComplete="off"
            spellCheck={false}
          />
        </Field>
        <Field label="Language" error={errorOf(null, "language")} hint="The provider's code, like en_US or pt_BR.">
          <Input
            value={draft.language}
            onChange={(e) => update((d) => ({ ...d, language: e.target.value }))}
            list="template-languages"
            mono
            maxLength={10}
            autoComplete="off"
            spellCheck={false}
          />
        </Field>
        <datalist id="template-languages">
          {LANGUAGES.map((code) => (
            <option key={code} value={code} />
          ))}
        </datalist>
        <Field label="Category" error={errorOf(null, "category")} hint={CATEGORY_HINTS[draft.category]}>
          <Select
            value={draft.category}
            onChange={(e) => {
              const category = e.target.value as TemplateCategory;
              const key = nextKey();
              update((d) => withCategory(d, category, key));
            }}
          >
            {CATEGORIES.map((category) => (
              <option key={category} value={category}>
                {CATEGORY_LABELS[category]}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Parameter format" error={errorOf(null, "parameter_format")} hint="How variables are written in the header and body.">
          <Select value={draft.parameterFormat} onChange={(e) => update((d) => ({ ...d, parameterFormat: e.target.value as ParameterFormat }))}>
            {PARAMETER_FORMATS.map((format) => (
              <option key={format} value={format}>
                {FORMAT_LABELS[format]}
              </option>
            ))}
          </Select>
        </Field>
      </CardBody>
    </Card>
  );
}
