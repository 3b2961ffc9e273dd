"use client";

import { Card, CardBody, CardHeader, Checkbox, Field, Input } from "@/components/ui";
import { isAuthentication, type TemplateDraft } from "../model/draft";
import { LIMITS } from "../model/vocabulary";
import type { SectionProps } from "./builder-props";
import { VariableExamples, VariableText } from "./variable-text";

function SectionError({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="text-xs font-medium text-red-600">
      {message}
    </p>
  );
}

/** BODY: the message text with its variables and their examples; AUTHENTICATION's is the provider's preset. */
export function BodySection({ draft, update, errorOf }: SectionProps) {
  const setBody = (patch: Partial<TemplateDraft["body"]>) => update((d) => ({ ...d, body: { ...d.body, ...patch } }));
  if (isAuthentication(draft)) {
    return (
      <Card>
        <CardHeader title="Body" description="The provider writes it: “<code> is your verification code.”" />
        <CardBody className="space-y-2">
          <Checkbox
            label="Add a security recommendation"
            description="Appends “For your security, do not share this code.”"
            checked={draft.body.addSecurityRecommendation}
            onChange={(e) => setBody({ addSecurityRecommendation: e.target.checked })}
          />
          <SectionError message={errorOf("BODY", "add_security_recommendation") ?? errorOf("BODY")} />
        </CardBody>
      </Card>
    );
  }
  return (
    <Card>
      <CardHeader title="Body" description="Required. Don't start or end it with a variable: the provider rejects that." />
      <CardBody className="space-y-4">
        <VariableText
          label="Body text"
          where="body"
          value={draft.body.text}
          onChange={(text) => setBody({ text })}
          format={draft.parameterFormat}
          maxLength={LIMITS.bodyText}
          multiline
          error={errorOf("BODY", "text")}
          hint="*bold*, _italic_ and ~strike~ work as in chats."
          placeholder="Hi {{1}}, your order {{2}} has shipped."
        />
        <VariableExamples
          text={draft.body.text}
          examples={draft.body.examples}
          onChange={(examples) => setBody({ examples })}
          error={errorOf("BODY", "example")}
        />
        <SectionError message={errorOf("BODY")} />
      </CardBody>
    </Card>
  );
}

/** FOOTER: a short plain line; for AUTHENTICATION, the code's expiry the provider words. */
export function FooterSection({ draft, update, errorOf }: SectionProps) {
  const setFooter = (patch: Partial<TemplateDraft["footer"]>) => update((d) => ({ ...d, footer: { ...d.footer, ...patch } }));
  const auth = isAuthentication(draft);
  return (
    <Card>
      <CardHeader
        title="Footer"
        description={auth ? "Optional: says how long the code stays valid." : "Optional: a short grey line under the text, without variables."}
      />
      <CardBody className="space-y-2">
        {auth ? (
          <Field label="Code expires after (minutes)" error={errorOf("FOOTER", "code_expiration_minutes")} optional className="sm:w-56">
            <Input
              type="number"
              min={1}
              max={90}
              value={draft.footer.codeExpirationMinutes}
              onChange={(e) => setFooter({ codeExpirationMinutes: e.target.value })}
            />
          </Field>
        ) : (
          <Field label="Footer text" error={errorOf("FOOTER", "text")} optional hint={`${[...draft.footer.text].length}/${LIMITS.footerText}`}>
            <Input value={draft.footer.text} onChange={(e) => setFooter({ text: e.target.value })} placeholder="Reply STOP to opt out" />
          </Field>
        )}
        <SectionError message={errorOf("FOOTER")} />
      </CardBody>
    </Card>
  );
}
