"use client";

import type { ReactNode } from "react";
import { Checkbox, Field, Input, Select } from "@/components/ui";
import { OTP_TYPES, type OtpType } from "../model/vocabulary";
import type { ButtonFieldsProps } from "./button-card";

const OTP_LABELS: Record<OtpType, string> = {
  COPY_CODE: "Copy code",
  ONE_TAP: "One-tap autofill (Android)",
  ZERO_TAP: "Zero-tap (Android)",
};

/** The OTP button of an AUTHENTICATION template: copy code, or an Android app that fills the code in. */
export function OtpButtonFields({ button, onChange, errorOf, label }: ButtonFieldsProps & { label: ReactNode }) {
  const app = button.otpType !== "COPY_CODE";
  return (
    <>
      <Field label="Code delivery" error={errorOf("otp_type")}>
        <Select value={button.otpType} onChange={(e) => onChange({ otpType: e.target.value as OtpType })}>
          {OTP_TYPES.map((type) => (
            <option key={type} value={type}>
              {OTP_LABELS[type]}
            </option>
          ))}
        </Select>
      </Field>
      {label}
      {app && (
        <>
          <Field label="Android package name" error={errorOf("supported_apps")} hint="The app that receives the code, like com.example.app.">
            <Input value={button.packageName} onChange={(e) => onChange({ packageName: e.target.value })} mono spellCheck={false} />
          </Field>
          <Field label="Signing key hash" hint="Your app's 11-character signature hash.">
            <Input value={button.signatureHash} onChange={(e) => onChange({ signatureHash: e.target.value })} mono spellCheck={false} maxLength={11} />
          </Field>
        </>
      )}
      {button.otpType === "ZERO_TAP" && (
        <div className="sm:col-span-2">
          <Checkbox
            label="I accept the provider's zero-tap terms"
            checked={button.zeroTapTermsAccepted}
            onChange={(e) => onChange({ zeroTapTermsAccepted: e.target.checked })}
          />
          {errorOf("zero_tap_terms_accepted") && <p className="mt-1 text-xs font-medium text-red-600">{errorOf("zero_tap_terms_accepted")}</p>}
        </div>
      )}
    </>
  );
}
