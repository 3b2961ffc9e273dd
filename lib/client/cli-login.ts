"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CliApprovedDeviceCodeWire as ApprovedCliCode, CliDeviceCodeWire as CliCode } from "@/lib/dashboard/routes/cli-login";
import { formatUserCode, normalizeUserCode } from "@/lib/shared/cli-user-code";
import { CLI_SCOPE_PRESET, SCOPE_PRESETS, type ScopePreset } from "@/lib/shared/scope-catalog";
import { apiFetch, isApiError } from "./api";
import { can, type Me } from "./me";

/**
 * The CLI login confirmation page (/cli/confirm): one code a terminal is waiting on, and the
 * operator's approve / deny (lib/dashboard/routes/cli-login.ts, served with the account routes under
 * /api/dashboard because no project is chosen yet).
 */

export type { ApprovedCliCode, CliCode };
export type CliCodeStatus = CliCode["status"];

const cliLoginKeys = {
  all: ["cli-login"] as const,
  code: (userCode: string) => ["cli-login", "code", userCode] as const,
};

/** The scopes the page starts with, and its presets: the CLI's own set first, then the key form's. */
export const DEFAULT_CLI_SCOPES: readonly string[] = CLI_SCOPE_PRESET.scopes;
export const CLI_SCOPE_PRESETS: readonly ScopePreset[] = [CLI_SCOPE_PRESET, ...SCOPE_PRESETS];

/** The code as the server stores and shows it (`BCDF-GHJK`), or null when it cannot be one (wrong length or letters). */
export function canonicalUserCode(input: string | null | undefined): string | null {
  const letters = input ? normalizeUserCode(input) : null;
  return letters ? formatUserCode(letters) : null;
}

const codeUrl = (userCode: string) => `/api/dashboard/cli/device-codes/${encodeURIComponent(userCode)}`;

/** How often an undecided code is read again, so expiry or a decision made elsewhere shows without a reload. */
const PENDING_REFRESH_MS = 15_000;

export function useCliCode(userCode: string) {
  return useQuery({
    queryKey: cliLoginKeys.code(userCode),
    queryFn: ({ signal }) => apiFetch<CliCode>(codeUrl(userCode), { signal }),
    refetchInterval: (query) => {
      const code = query.state.data;
      if (code?.status !== "pending") return false;
      // Read again just after it expires (the server then says "expired"), or every 15 s before that.
      const untilExpiry = Date.parse(code.expires_at) - Date.now() + 500;
      return Math.max(1_000, Math.min(PENDING_REFRESH_MS, untilExpiry));
    },
  });
}

/**
 * A decision the server refused because the code moved on (decided elsewhere, expired, unknown): the
 * page re-reads the code so it shows that state instead of a form that can no longer succeed.
 */
function codeMovedOn(error: unknown): boolean {
  return isApiError(error) && (error.code === "conflict" || error.code === "expired_token" || error.code === "not_found");
}

/** After a decision: the answer is the code's new state; a refusal because the code moved on re-reads it. */
function useDecisionEffects(userCode: string) {
  const client = useQueryClient();
  return {
    onSuccess: (code: CliCode) => client.setQueryData<CliCode>(cliLoginKeys.code(userCode), code),
    onError: (error: Error) => {
      if (codeMovedOn(error)) void client.invalidateQueries({ queryKey: cliLoginKeys.code(userCode) });
    },
  };
}

/** Creates the key "CLI on <host>" in the project with exactly these scopes; the CLI's next poll collects it. */
export function useApproveCliCode(userCode: string) {
  return useMutation({
    mutationFn: (input: { project_id: string; scopes: string[] }) => apiFetch<ApprovedCliCode>(`${codeUrl(userCode)}/approve`, { method: "POST", body: input }),
    ...useDecisionEffects(userCode),
  });
}

/** The CLI's next poll gets access_denied and stops; nothing is created. */
export function useDenyCliCode(userCode: string) {
  return useMutation({
    mutationFn: () => apiFetch<CliCode>(`${codeUrl(userCode)}/deny`, { method: "POST" }),
    ...useDecisionEffects(userCode),
  });
}

export interface ApprovableProject {
  id: string;
  name: string;
  organizationName: string;
  /** The operator's role there lets them create keys (the server checks keys:write again on approve). */
  canCreateKeys: boolean;
}

/** Every project the operator can open, grouped as the project switcher groups them, marked by whether a key may be made there. */
export function approvableProjects(me: Me | undefined): ApprovableProject[] {
  return (me?.organizations ?? []).flatMap((organization) =>
    organization.projects.map((project) => ({
      id: project.id,
      name: project.name,
      organizationName: organization.name,
      canCreateKeys: can(organization.role, "keys"),
    })),
  );
}

/** The project selected first: the first where the operator may make a key (else the first, so the refusal can explain why). */
export function defaultProjectId(projects: readonly ApprovableProject[]): string {
  return (projects.find((project) => project.canCreateKeys) ?? projects[0])?.id ?? "";
}
