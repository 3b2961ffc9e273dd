"use client";

import { Button, Field, Input, TrashIcon } from "@/components/ui";
import type { ButtonDraft } from "../model/draft";
import { variablesIn } from "../model/variables";
import { BUTTON_LABELS, LIMITS } from "../model/vocabulary";
import { FlowButtonFields } from "./flow-button-fields";
import { OtpButtonFields } from "./otp-button-fields";

export interface ButtonFieldsProps {
  button: ButtonDraft;
  onChange: (patch: Partial<ButtonDraft>) => void;
  /** The server's issue at `buttons.<index>.<sub>` (the button's own catch-all without `sub`). */
  errorOf: (sub?: string) => string | undefined;
}

function LabelField({ button, onChange, errorOf, optional }: ButtonFieldsProps & { optional?: boolean }) {
  return (
    <Field label="Button text" error={errorOf("text")} optional={optional} hint={`${[...button.text].length}/${LIMITS.buttonText}`}>
      <Input value={button.text} onChange={(e) => onChange({ text: e.target.value })} autoComplete="off" />
    </Field>
  );
}

function UrlFields(props: ButtonFieldsProps) {
  const { button, onChange, errorOf } = props;
  return (
    <>
      <LabelField {...props} />
      <Field label="URL" error={errorOf("url")} hint="https://…; end it with {{1}} to add a different ending per send.">
        <Input value={button.url} onChange={(e) => onChange({ url: e.target.value })} mono placeholder="https://example.com/orders/{{1}}" spellCheck={false} />
      </Field>
      {variablesIn(button.url).length > 0 && (
        <Field label="Example URL" error={errorOf("example")} hint="The full address with a sample ending.">
          <Input
            value={button.urlExample}
            onChange={(e) => onChange({ urlExample: e.target.value })}
            mono
            placeholder="https://example.com/orders/A123"
            spellCheck={false}
          />
        </Field>
      )}
    </>
  );
}

function KindFields(props: ButtonFieldsProps & { projectId: string }) {
  const { button, onChange, errorOf } = props;
  switch (button.type) {
    case "QUICK_REPLY":
      return <LabelField {...props} />;
    case "URL":
      return <UrlFields {...props} />;
    case "PHONE_NUMBER":
      return (
        <>
          <LabelField {...props} />
          <Field label="Phone number" error={errorOf("phone_number")} hint="With its country code, like +15550051310.">
            <Input value={button.phoneNumber} onChange={(e) => onChange({ phoneNumber: e.target.value })} type="tel" mono />
          </Field>
        </>
      );
    case "COPY_CODE":
      return (
        <Field label="Example code" error={errorOf("example")} hint={`Up to ${LIMITS.couponCode} characters; each send gives the real code.`}>
          <Input value={button.code} onChange={(e) => onChange({ code: e.target.value })} mono placeholder="SUMMER25" maxLength={LIMITS.couponCode} />
        </Field>
      );
    case "FLOW":
      return (
        <>
          <LabelField {...props} />
          <FlowButtonFields {...props} />
        </>
      );
    case "OTP":
      return <OtpButtonFields {...props} label={<LabelField {...props} optional />} />;
  }
}

/** One button: its kind, the fields that kind takes, and the server's issues under each. */
export function ButtonCard({
  projectId,
  button,
  index,
  removable,
  onChange,
  onRemove,
  errorOf,
}: ButtonFieldsProps & { projectId: string; index: number; removable: boolean; onRemove: () => void }) {
  const label = `Button ${index + 1}`;
  const own = errorOf();
  return (
    <section aria-label={label} data-button-type={button.type} className="space-y-3 rounded-lg bg-slate-50/70 p-3 ring-1 ring-slate-200">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-[13px] font-semibold text-slate-900">
          <span className="text-slate-500">{index + 1}.</span> {BUTTON_LABELS[button.type]}
        </h3>
        {removable && (
          <Button variant="ghost" size="icon" aria-label={`Remove button ${index + 1}`} onClick={onRemove}>
            <TrashIcon />
          </Button>
        )}
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <KindFields projectId={projectId} button={button} onChange={onChange} errorOf={errorOf} />
      </div>
      {(own || errorOf("type")) && (
        <p role="alert" className="text-xs font-medium text-red-600">
          {[errorOf("type"), own].filter(Boolean).join(" ")}
        </p>
      )}
    </section>
  );
}
