"use client";

import { useState, type FormEvent } from "react";
import { AuthCard } from "@/app/(auth)/auth-card";
import { ScopePicker } from "@/components/keys/scope-picker";
import { Button, FormError } from "@/components/ui";
import { isApiError } from "@/lib/client/api";
import {
  CLI_SCOPE_PRESETS,
  DEFAULT_CLI_SCOPES,
  approvableProjects,
  defaultProjectId,
  type CliCode,
  type useApproveCliCode,
  type useDenyCliCode,
} from "@/lib/client/cli-login";
import { useMe } from "@/lib/client/me";
import { GrantedScopes } from "./granted-scopes";
import { ProjectSelect } from "./project-select";
import { RequestDetails } from "./request-details";

export interface ApproveFormProps {
  code: CliCode;
  approve: ReturnType<typeof useApproveCliCode>;
  deny: ReturnType<typeof useDenyCliCode>;
}

/** A pending code: the request, then where the key goes and what it may do, then Approve or Deny. */
export function ApproveForm({ code, approve, deny }: ApproveFormProps) {
  const me = useMe();
  const projects = approvableProjects(me.data);
  const [chosenProject, setProjectId] = useState<string | null>(null);
  const projectId = chosenProject ?? defaultProjectId(projects);
  const [scopes, setScopes] = useState<string[]>([...DEFAULT_CLI_SCOPES]);
  const [scopesError, setScopesError] = useState<string>();

  const project = projects.find((candidate) => candidate.id === projectId);
  const busy = approve.isPending || deny.isPending;
  const failure = approve.error ?? deny.error;
  const serverScopesError = isApiError(approve.error) ? approve.error.fieldError("scopes") : undefined;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (scopes.length === 0) {
      setScopesError("Pick at least one scope, or a preset.");
      return;
    }
    setScopesError(undefined);
    deny.reset();
    approve.mutate({ project_id: projectId, scopes });
  };

  return (
    <AuthCard
      title="Confirm CLI login"
      description="A terminal running svc login asks for an API key. Approve only if you started it."
      // Which account approves matters (the key is created as theirs): say it, as the sign-in page does.
      footer={me.data && <>Signed in as {me.data.user.email}</>}
    >
      <form onSubmit={submit} noValidate className="space-y-6">
        <RequestDetails code={code} />
        <ProjectSelect projects={projects} value={projectId} onChange={setProjectId} loading={me.isPending} error={me.error} />
        <ScopePicker value={scopes} onChange={setScopes} presets={CLI_SCOPE_PRESETS} error={scopesError ?? serverScopesError} />
        <GrantedScopes scopes={scopes} host={code.client_host} />
        {failure && !serverScopesError && <FormError>{failure.message}</FormError>}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button
            type="button"
            variant="secondary"
            size="lg"
            disabled={busy}
            loading={deny.isPending}
            onClick={() => {
              approve.reset();
              deny.mutate();
            }}
          >
            Deny
          </Button>
          <Button type="submit" variant="primary" size="lg" disabled={busy || !project?.canCreateKeys} loading={approve.isPending}>
            Approve
          </Button>
        </div>
      </form>
    </AuthCard>
  );
}
