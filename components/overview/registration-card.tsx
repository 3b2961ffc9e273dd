"use client";

import { useState, type FormEvent } from "react";
import { Badge, Button, Card, CardBody, CardHeader, CopyButton, Field, Input, Skeleton, Time } from "@/components/ui";
import { isApiError } from "@/lib/client/api";
import { useCreateRegistrationIntent, useRecentRegistrationIntents, type RegistrationIntent } from "@/lib/client/registration-intents";
import { RegistrationList } from "./registration-list";
import { RegistrationQr } from "./registration-qr";

/**
 * "Registration link": mint a link for one customer, show it with its QR code, and follow the recent
 * links until their customers write (docs/spec/decisions.md "Registration intents").
 */
export function RegistrationCard({ projectId, canWrite }: { projectId: string; canWrite: boolean }) {
  const [reference, setReference] = useState("");
  const [minted, setMinted] = useState<RegistrationIntent | null>(null);
  const create = useCreateRegistrationIntent(projectId);
  const recent = useRecentRegistrationIntents(projectId);
  const error = create.error;
  const fieldError = isApiError(error) ? (error.fieldError("customer_reference") ?? error.message) : error ? "Couldn't create the link. Try again." : undefined;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!canWrite || !reference.trim()) return;
    create.mutate({ customer_reference: reference.trim() }, { onSuccess: (intent) => setMinted(intent) });
  };

  return (
    <Card aria-labelledby="registration-heading">
      <CardHeader
        title={<span id="registration-heading">Registration link</span>}
        description="A link your customer taps to message you with a code: their reply registers them (reference and opt-in)."
      />
      <CardBody className="space-y-4">
        {canWrite && (
          <form onSubmit={submit} noValidate>
            <Field label="Customer reference" error={fieldError} hint="Your id for this customer; later events carry it as contact_reference.">
              <div className="flex flex-col gap-2 sm:flex-row">
                <Input
                  value={reference}
                  onChange={(event) => {
                    setReference(event.target.value);
                    if (create.isError) create.reset();
                  }}
                  placeholder="customer-8841"
                  maxLength={200}
                  autoComplete="off"
                  className="min-w-0 flex-1"
                />
                <Button type="submit" loading={create.isPending} disabled={!reference.trim()}>
                  Create link
                </Button>
              </div>
            </Field>
          </form>
        )}
        {minted && <MintedLink intent={minted} />}
        <div className="border-t border-slate-100 pt-3">
          <p className="mb-1 text-[13px] font-medium text-slate-800">Recent links</p>
          {recent.isPending ? (
            <Skeleton className="h-10 w-full" />
          ) : recent.isError ? (
            <p className="text-sm text-red-700">Couldn&apos;t load the recent links.</p>
          ) : (
            <RegistrationList intents={recent.data.data} />
          )}
        </div>
      </CardBody>
    </Card>
  );
}

function MintedLink({ intent }: { intent: RegistrationIntent }) {
  return (
    <div className="flex flex-col gap-4 rounded-lg bg-slate-50 p-4 ring-1 ring-slate-200 sm:flex-row" data-testid="registration-link">
      <RegistrationQr value={intent.wa_link} />
      <div className="min-w-0 flex-1 space-y-2">
        <div className="flex items-center gap-2">
          <Badge tone={intent.mode === "live" ? "success" : "warning"}>{intent.mode === "live" ? "Live" : "Test (sandbox)"}</Badge>
          <span className="text-xs text-slate-500">
            Expires <Time value={intent.expires_at} format="absolute" />
          </span>
        </div>
        <div className="flex items-center gap-1">
          <a
            href={intent.wa_link}
            target="_blank"
            rel="noreferrer"
            className="truncate font-mono text-[12px] text-indigo-700 underline"
            data-testid="registration-wa-link"
          >
            {intent.wa_link}
          </a>
          <CopyButton value={intent.wa_link} label="registration link" />
        </div>
        <p className="text-xs text-slate-600">
          Prefilled text:{" "}
          <code className="font-mono text-slate-800" data-testid="registration-prefilled">
            {intent.prefilled_message}
          </code>
        </p>
        <p className="text-xs text-slate-500">Sent to {intent.whatsapp_number}.</p>
      </div>
    </div>
  );
}
