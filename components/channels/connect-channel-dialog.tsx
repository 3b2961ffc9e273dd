"use client";

import { useState, type FormEvent } from "react";
import { Dialog, Field, FormDialogActions, FormError, Input, Select, useToast } from "@/components/ui";
import { isApiError } from "@/lib/client/api";
import {
  CHANNEL_ROUTING_MODES,
  CONNECTABLE_PLATFORMS,
  CREDENTIAL_FIELDS,
  useConnectChannel,
  type ChannelConnectRequest,
  type ChannelRoutingMode,
  type ConnectablePlatform,
} from "@/lib/client/channels";
import { PLATFORMS, platformLabel } from "@/lib/shared/platforms";
import { ROUTING_LABELS, ROUTING_SENTENCES, type ProjectRoutingMode } from "@/lib/shared/routing-modes";
import { channelName } from "./channel-card";

const CREDENTIAL_LABELS: Record<string, { label: string; hint?: string }> = {
  phone_number_id: { label: "Phone number ID", hint: "The provider's id of the number, not the number itself." },
  business_account_id: { label: "Business account ID", hint: "The business account the number belongs to." },
  account_id: { label: "Account ID", hint: "The provider's id of the account that receives messages." },
  page_id: { label: "Page ID", hint: "The provider's id of the page whose inbox this is." },
  access_token: { label: "Access token", hint: "Stored encrypted and never shown again." },
};

type Values = {
  platform: ConnectablePlatform;
  display_name: string;
  phone_number: string;
  routing_mode: "" | ChannelRoutingMode;
  credentials: Record<string, string>;
};

const initial: Values = { platform: "PLATFORM_A", display_name: "", phone_number: "", routing_mode: "", credentials: {} };

/**
 * What "Same as the project" does (the API's default, lib/domain/channels createChannel): AGENT is the
 * project's alone, so the channel follows it; EXTERNAL or FLOWS is copied, and stays when the project's changes.
 */
function inheritedHint(projectRouting: ProjectRoutingMode | undefined): string {
  if (!projectRouting) return "The channel takes the project's routing.";
  if (projectRouting === "AGENT") return `The channel follows the project's routing (AGENT): ${ROUTING_SENTENCES.AGENT}`;
  return `The channel starts with the project's routing (${projectRouting}) and keeps it if the project's changes later: ${ROUTING_SENTENCES[projectRouting]}`;
}

/** Connect a dedicated channel (POST …/channels): the server validates, its field errors land under the inputs. */
export function ConnectChannelDialog({
  projectId,
  open,
  onClose,
  projectRouting,
}: {
  projectId: string;
  open: boolean;
  onClose: () => void;
  projectRouting?: ProjectRoutingMode | undefined;
}) {
  const connect = useConnectChannel(projectId);
  const toast = useToast();
  const [values, setValues] = useState<Values>(initial);
  // Fields changed since the last submit: their old server error no longer describes what is typed.
  const [edited, setEdited] = useState<ReadonlySet<string>>(new Set());
  const markEdited = (field: string) => setEdited((current) => (current.has(field) ? current : new Set(current).add(field)));

  const error = connect.error;
  /** The server's message for a field; "Required." when the operator left it empty (the schema's wording is technical). */
  const fieldError = (field: string, value: string): string | undefined => {
    if (!isApiError(error) || edited.has(field)) return undefined;
    const message = error.fieldError(field);
    if (!message) return undefined;
    return value.trim() === "" ? "Required." : message;
  };
  const platformError = isApiError(error)
    ? (error.fieldError("platform") ?? (error.code === "feature_unsupported_on_channel" ? error.message : undefined))
    : undefined;
  const shownFields = ["platform", "display_name", "phone_number", "routing_mode", ...CREDENTIAL_FIELDS[values.platform].map((f) => `credentials.${f}`)];
  const generalError =
    error && !(isApiError(error) && (error.code === "feature_unsupported_on_channel" || shownFields.some((f) => error.fieldError(f)))) ? error.message : null;

  const close = () => {
    setValues(initial);
    setEdited(new Set());
    connect.reset();
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const credentials = Object.fromEntries(CREDENTIAL_FIELDS[values.platform].map((field) => [field, (values.credentials[field] ?? "").trim()]));
    const input: ChannelConnectRequest = {
      platform: values.platform,
      display_name: values.display_name.trim() || null,
      ...(values.platform === "PLATFORM_A" ? { phone_number: values.phone_number.trim() || null } : {}),
      ...(values.routing_mode ? { routing_mode: values.routing_mode } : {}),
      credentials,
    };
    setEdited(new Set());
    connect.mutate(input, {
      onSuccess: (channel) => {
        toast.show({
          tone: "success",
          title: `${channelName(channel)} is connected`,
          description: channel.routing_warning ? "It has a routing warning: see its card." : undefined,
        });
        close();
      },
    });
  };

  const setCredential = (field: string, value: string) => {
    markEdited(`credentials.${field}`);
    setValues((v) => ({ ...v, credentials: { ...v.credentials, [field]: value } }));
  };
  const setText = (field: "display_name" | "phone_number", value: string) => {
    markEdited(field);
    setValues((v) => ({ ...v, [field]: value }));
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      title="Connect a channel"
      description="Bring your own number or account. Inbound messages on it come to this project."
      size="md"
      dismissible={!connect.isPending}
      onSubmit={submit}
      footer={<FormDialogActions onCancel={close} pending={connect.isPending} submitLabel="Connect channel" />}
    >
      <div className="space-y-4">
        <Field label="Platform" hint={PLATFORMS[values.platform].description} error={platformError}>
          <Select
            value={values.platform}
            onChange={(e) => {
              connect.reset();
              setValues((v) => ({ ...v, platform: e.target.value as ConnectablePlatform }));
            }}
          >
            {CONNECTABLE_PLATFORMS.map((platform) => (
              <option key={platform} value={platform}>
                {platformLabel(platform)}
              </option>
            ))}
          </Select>
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Display name" optional error={fieldError("display_name", values.display_name)}>
            <Input value={values.display_name} onChange={(e) => setText("display_name", e.target.value)} placeholder="Support line" autoComplete="off" />
          </Field>
          {values.platform === "PLATFORM_A" && (
            <Field label="Phone number" optional hint="E.164, e.g. +14155550123." error={fieldError("phone_number", values.phone_number)}>
              <Input
                value={values.phone_number}
                onChange={(e) => setText("phone_number", e.target.value)}
                placeholder="+14155550123"
                inputMode="tel"
                autoComplete="off"
                mono
              />
            </Field>
          )}
        </div>

        <fieldset className="space-y-4 rounded-lg bg-slate-50/70 p-4 ring-1 ring-slate-200 ring-inset">
          <legend className="sr-only">Credentials</legend>
          <p aria-hidden="true" className="text-xs font-medium tracking-wide text-slate-500 uppercase">
            Credentials
          </p>
          {CREDENTIAL_FIELDS[values.platform].map((field) => {
            const text = CREDENTIAL_LABELS[field] ?? { label: field };
            const value = values.credentials[field] ?? "";
            return (
              <Field key={`${values.platform}-${field}`} label={text.label} hint={text.hint} error={fieldError(`credentials.${field}`, value)}>
                <Input
                  value={value}
                  onChange={(e) => setCredential(field, e.target.value)}
                  type={field === "access_token" ? "password" : "text"}
                  autoComplete={field === "access_token" ? "new-password" : "off"}
                  spellCheck={false}
                  mono
                />
              </Field>
            );
          })}
        </fieldset>

        <Field
          label="Routing mode"
          optional
          hint={values.routing_mode ? ROUTING_SENTENCES[values.routing_mode] : inheritedHint(projectRouting)}
          error={isApiError(error) ? error.fieldError("routing_mode") : undefined}
        >
          <Select value={values.routing_mode} onChange={(e) => setValues((v) => ({ ...v, routing_mode: e.target.value as Values["routing_mode"] }))}>
            <option value="">Same as the project{projectRouting ? ` (${projectRouting})` : ""}</option>
            {CHANNEL_ROUTING_MODES.map((mode) => (
              <option key={mode} value={mode}>
                {mode}: {ROUTING_LABELS[mode]}
              </option>
            ))}
          </Select>
        </Field>

        <FormError>{generalError}</FormError>
      </div>
    </Dialog>
  );
}
