"use client";

import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { ListEnvelope } from "@/lib/api/schemas/common";
import type {
  FunctionCreateRequest as CreateSchema,
  FunctionDeployWire as FunctionDeploy,
  FunctionDraftWire as FunctionDraft,
  FunctionInvocationWire as FunctionInvocation,
  FunctionInvokeRequest as InvokeSchema,
  FunctionRunWire as FunctionRun,
  FunctionSecretsWire as FunctionSecrets,
  FunctionTestRequest as TestSchema,
  FunctionUpdateRequest as UpdateSchema,
  FunctionVersionWire as FunctionVersion,
  HostedFunctionWire as HostedFunction,
} from "@/lib/api/schemas/functions";
import type { FunctionEventType } from "@/lib/shared/functions";
import { projectApi } from "./api";
import { projectQueryKey } from "./query";

/**
 * Hosted functions of a project (docs/spec/decisions.md "Hosted functions"): the list with each
 * function's last-24 h error rate, one function with its source and its saved draft, deploy, test and invoke, the
 * invocation log, versions and rollback, and the write-only secrets. The shapes are the API's own
 * (lib/api/schemas/functions.ts), types only.
 */
export type { FunctionDeploy, FunctionDraft, FunctionInvocation, FunctionRun, FunctionSecrets, FunctionVersion, HostedFunction };

export type FunctionCreateRequest = z.input<typeof CreateSchema>;
export type FunctionUpdateRequest = z.input<typeof UpdateSchema>;
export type FunctionTestRequest = z.input<typeof TestSchema>;
export type FunctionInvokeRequest = z.input<typeof InvokeSchema>;
export type FunctionLogLine = FunctionRun["logs"][number];
/** PUT /functions/{id}/secrets: a value sets the secret, null deletes it. */
export type FunctionSecretsUpdate = Record<string, string | null>;

/** GET /function-stats (dashboard-only): each function's runs of the last 24 h, for the list's error rate. */
export interface FunctionStat {
  function_id: string;
  invocations_24h: number;
  errors_24h: number;
  last_invoked_at: string | null;
}

export interface InvocationFilters {
  status?: "ok" | "error" | undefined;
  event_type?: FunctionEventType | undefined;
}

const LIST_PAGE = 100;
const INVOCATION_PAGE = 25;
const STATS_POLL_MS = 30_000;

const functionKeys = {
  all: (projectId: string) => projectQueryKey(projectId, "functions"),
  list: (projectId: string) => projectQueryKey(projectId, "functions", "list"),
  stats: (projectId: string) => projectQueryKey(projectId, "functions", "stats"),
  function: (projectId: string, functionId: string) => projectQueryKey(projectId, "functions", "function", functionId),
  invocations: (projectId: string, functionId: string, filters?: InvocationFilters) =>
    filters
      ? projectQueryKey(projectId, "functions", "invocations", functionId, { ...filters })
      : projectQueryKey(projectId, "functions", "invocations", functionId),
  versions: (projectId: string, functionId: string) => projectQueryKey(projectId, "functions", "versions", functionId),
  secrets: (projectId: string, functionId: string) => projectQueryKey(projectId, "functions", "secrets", functionId),
  draft: (projectId: string, functionId: string) => projectQueryKey(projectId, "functions", "draft", functionId),
};

const functionPath = (functionId: string, suffix = "") => `/functions/${encodeURIComponent(functionId)}${suffix}`;

function pageQuery(limit: number, startingAfter: string | undefined, extra: Record<string, string | undefined> = {}): string {
  const query = new URLSearchParams({ limit: String(limit) });
  for (const [key, value] of Object.entries(extra)) if (value) query.set(key, value);
  if (startingAfter) query.set("starting_after", startingAfter);
  return `?${query}`;
}

/** GET /functions, newest first; "Load more" fetches the next page. */
export function useFunctions(projectId: string) {
  return useInfiniteQuery({
    queryKey: functionKeys.list(projectId),
    queryFn: ({ signal, pageParam }) => projectApi<ListEnvelope<HostedFunction>>(projectId, `/functions${pageQuery(LIST_PAGE, pageParam)}`, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? last.data.at(-1)?.id : undefined),
  });
}

// Module-level, so react-query reuses the Map until the answer changes.
const statsById = (page: ListEnvelope<FunctionStat>) => new Map(page.data.map((stat) => [stat.function_id, stat]));

/** GET /function-stats, keyed by function id; refreshed every 30 s while the list is open. */
export function useFunctionStats(projectId: string) {
  return useQuery({
    queryKey: functionKeys.stats(projectId),
    queryFn: ({ signal }) => projectApi<ListEnvelope<FunctionStat>>(projectId, "/function-stats", { signal }),
    select: statsById,
    refetchInterval: STATS_POLL_MS,
  });
}

/** GET /functions/{id}: the function with its active version's source (null before the first deploy). */
export function useFunction(projectId: string, functionId: string) {
  return useQuery({
    queryKey: functionKeys.function(projectId, functionId),
    queryFn: ({ signal }) => projectApi<HostedFunction>(projectId, functionPath(functionId), { signal }),
  });
}

function invalidateFunction(client: QueryClient, projectId: string, functionId: string) {
  void client.invalidateQueries({ queryKey: functionKeys.function(projectId, functionId) });
  void client.invalidateQueries({ queryKey: functionKeys.list(projectId) });
}

/** PATCH answers carry no `source` (only the single GET does): keep the cached one rather than blanking the editor. */
function storeWithoutSource(client: QueryClient, projectId: string, fn: HostedFunction) {
  const key = functionKeys.function(projectId, fn.id);
  if (client.getQueryData<HostedFunction>(key)) {
    client.setQueryData<HostedFunction>(key, (cached) => ({ ...fn, source: fn.source !== undefined ? fn.source : cached?.source }));
  }
  invalidateFunction(client, projectId, fn.id);
}

/** POST /functions. */
export function useCreateFunction(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: FunctionCreateRequest) => projectApi<HostedFunction>(projectId, "/functions", { method: "POST", body: input }),
    onSuccess: () => void client.invalidateQueries({ queryKey: functionKeys.list(projectId) }),
  });
}

/** PATCH /functions/{id}: name, is_active, expose_as_mcp_tool, input_schema (null clears it). */
export function useUpdateFunction(projectId: string, functionId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: FunctionUpdateRequest) => projectApi<HostedFunction>(projectId, functionPath(functionId), { method: "PATCH", body: input }),
    onSuccess: (fn) => storeWithoutSource(client, projectId, fn),
  });
}

/** DELETE /functions/{id}; 409 function_in_use (with `references`) while an automation or agent tool uses it. */
export function useDeleteFunction(projectId: string, functionId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => projectApi<{ object: "hosted_function"; id: string; deleted: true }>(projectId, functionPath(functionId), { method: "DELETE" }),
    onSuccess: () => {
      client.removeQueries({ queryKey: functionKeys.function(projectId, functionId) });
      void client.invalidateQueries({ queryKey: functionKeys.list(projectId) });
      void client.invalidateQueries({ queryKey: functionKeys.stats(projectId) });
    },
  });
}

/**
 * POST /functions/{id}/deploy: 200 for both outcomes. `ok` → a new active version whose source is
 * the one sent (cached at once so the editor does not flicker); `error` → nothing changed, the
 * diagnostics say where.
 */
export function useDeployFunction(projectId: string, functionId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (source: string) => projectApi<FunctionDeploy>(projectId, functionPath(functionId, "/deploy"), { method: "POST", body: { source } }),
    onSuccess: (deploy, source) => {
      if (deploy.status !== "ok") return;
      client.setQueryData<HostedFunction>(functionKeys.function(projectId, functionId), (cached) =>
        cached ? { ...cached, source, active_version_id: deploy.version_id, runtime: deploy.runtime ?? cached.runtime } : cached,
      );
      // The server removed a draft of exactly this code; mirror it at once so the editor's state does not flicker.
      client.setQueryData<FunctionDraft>(functionKeys.draft(projectId, functionId), (cached) =>
        cached?.source === source ? { ...cached, source: null, bytes: null, base_version_id: null, updated_at: null } : cached,
      );
      invalidateFunction(client, projectId, functionId);
      void client.invalidateQueries({ queryKey: functionKeys.draft(projectId, functionId) });
      void client.invalidateQueries({ queryKey: functionKeys.versions(projectId, functionId) });
    },
  });
}

/** GET /functions/{id}/draft: the saved draft (`source: null` when none), what the editor opens before the live code. */
export function useFunctionDraft(projectId: string, functionId: string) {
  return useQuery({
    queryKey: functionKeys.draft(projectId, functionId),
    queryFn: ({ signal }) => projectApi<FunctionDraft>(projectId, functionPath(functionId, "/draft"), { signal }),
  });
}

/** PUT /functions/{id}/draft {source}: saves without deploying; DELETE discards. Both answer the draft as it now is. */
export function useSaveFunctionDraft(projectId: string, functionId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (source: string | null) =>
      source === null
        ? projectApi<FunctionDraft>(projectId, functionPath(functionId, "/draft"), { method: "DELETE" })
        : projectApi<FunctionDraft>(projectId, functionPath(functionId, "/draft"), { method: "PUT", body: { source } }),
    onSuccess: (draft) => client.setQueryData(functionKeys.draft(projectId, functionId), draft),
  });
}

function useRunMutation<Input>(projectId: string, functionId: string, suffix: "/test" | "/invoke") {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: Input) => projectApi<FunctionRun>(projectId, functionPath(functionId, suffix), { method: "POST", body: input }),
    // A run is an invocation row, whatever its outcome: the log and the error rate change either way.
    onSettled: () => {
      void client.invalidateQueries({ queryKey: functionKeys.invocations(projectId, functionId) });
      void client.invalidateQueries({ queryKey: functionKeys.stats(projectId) });
    },
  });
}

/** POST /functions/{id}/test {text, contact}: the active version with a message event. */
export function useTestFunction(projectId: string, functionId: string) {
  return useRunMutation<FunctionTestRequest>(projectId, functionId, "/test");
}

/** POST /functions/{id}/invoke {arguments, contact_id?, contact_phone?}: 400 invalid_request when arguments miss the input_schema. */
export function useInvokeFunction(projectId: string, functionId: string) {
  return useRunMutation<FunctionInvokeRequest>(projectId, functionId, "/invoke");
}

/** GET /functions/{id}/invocations, newest first, filtered; "Load more" pages on. */
export function useFunctionInvocations(projectId: string, functionId: string, filters: InvocationFilters) {
  return useInfiniteQuery({
    queryKey: functionKeys.invocations(projectId, functionId, filters),
    queryFn: ({ signal, pageParam }) =>
      projectApi<ListEnvelope<FunctionInvocation>>(
        projectId,
        functionPath(functionId, `/invocations${pageQuery(INVOCATION_PAGE, pageParam, { status: filters.status, event_type: filters.event_type })}`),
        { signal },
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? last.data.at(-1)?.id : undefined),
    placeholderData: keepPreviousData,
  });
}

/** GET /functions/{id}/versions, newest first (without their source). */
export function useFunctionVersions(projectId: string, functionId: string) {
  return useInfiniteQuery({
    queryKey: functionKeys.versions(projectId, functionId),
    queryFn: ({ signal, pageParam }) =>
      projectApi<ListEnvelope<FunctionVersion>>(projectId, functionPath(functionId, `/versions${pageQuery(LIST_PAGE, pageParam)}`), { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? last.data.at(-1)?.id : undefined),
  });
}

/** POST /functions/{id}/rollback {version_id}: that version becomes the active one (source and runtime follow). */
export function useRollbackFunction(projectId: string, functionId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (versionId: string) =>
      projectApi<HostedFunction>(projectId, functionPath(functionId, "/rollback"), { method: "POST", body: { version_id: versionId } }),
    onSuccess: () => {
      invalidateFunction(client, projectId, functionId);
      void client.invalidateQueries({ queryKey: functionKeys.versions(projectId, functionId) });
    },
  });
}

/** GET /functions/{id}/secrets: names and when each was set, never the values. */
export function useFunctionSecrets(projectId: string, functionId: string) {
  return useQuery({
    queryKey: functionKeys.secrets(projectId, functionId),
    queryFn: ({ signal }) => projectApi<FunctionSecrets>(projectId, functionPath(functionId, "/secrets"), { signal }),
  });
}

/** PUT /functions/{id}/secrets {"NAME": "value" | null}: answers the names as they now are. */
export function useUpdateFunctionSecrets(projectId: string, functionId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (update: FunctionSecretsUpdate) =>
      projectApi<FunctionSecrets>(projectId, functionPath(functionId, "/secrets"), { method: "PUT", body: update }),
    onSuccess: (secrets) => client.setQueryData(functionKeys.secrets(projectId, functionId), secrets),
  });
}
