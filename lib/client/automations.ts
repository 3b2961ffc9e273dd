"use client";

import { useInfiniteQuery, useMutation, useQueryClient, type InfiniteData } from "@tanstack/react-query";
import type { ListEnvelope } from "@/lib/api/schemas/common";
import type { AutomationRunWire as AutomationRun, AutomationWire as Automation } from "@/lib/api/schemas/automations";
import type { AutomationStep, AutomationTrigger, MatchMode, StepKind } from "@/lib/domain/automations/definition";
import { projectApi } from "./api";
import { projectQueryKey } from "./query";

/**
 * Automations of a project (docs/spec/decisions.md "Automations (routing FLOWS)"): defined in
 * config-as-code, read here with their recent runs; the dashboard only switches one on or off.
 * The shapes are the API's own (lib/api/schemas/automations.ts, whose trigger and steps are
 * lib/domain/automations/definition.ts), types only.
 */
export type { Automation, AutomationRun, AutomationStep, AutomationTrigger, MatchMode, StepKind };

export type AutomationRunStatus = AutomationRun["status"];
export const RUN_STATUSES = ["RUNNING", "WAITING", "COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"] as const satisfies readonly AutomationRunStatus[];

const LIST_PAGE = 100;
const RUNS_PAGE = 10;
// Runs move by themselves (a customer replies, a delay ends): the open page follows them.
const RUNS_POLL_MS = 5_000;

export const automationKeys = {
  all: (projectId: string) => projectQueryKey(projectId, "automations"),
  list: (projectId: string) => projectQueryKey(projectId, "automations", "list"),
  runs: (projectId: string, automationId: string, status?: AutomationRunStatus) =>
    status ? projectQueryKey(projectId, "automations", "runs", automationId, { status }) : projectQueryKey(projectId, "automations", "runs", automationId),
};

const automationPath = (automationId: string, suffix = "") => `/automations/${encodeURIComponent(automationId)}${suffix}`;

function pageQuery(limit: number, startingAfter: string | undefined, status?: string): string {
  const query = new URLSearchParams({ limit: String(limit) });
  if (status) query.set("status", status);
  if (startingAfter) query.set("starting_after", startingAfter);
  return `?${query}`;
}

/** GET /automations, in config order; "Load more" past the first hundred. */
export function useAutomations(projectId: string) {
  return useInfiniteQuery({
    queryKey: automationKeys.list(projectId),
    queryFn: ({ signal, pageParam }) => projectApi<ListEnvelope<Automation>>(projectId, `/automations${pageQuery(LIST_PAGE, pageParam)}`, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? last.data.at(-1)?.id : undefined),
  });
}

/** GET /automations/{id}/runs?status=, newest first, followed every 5 s while shown. */
export function useAutomationRuns(projectId: string, automationId: string, status?: AutomationRunStatus) {
  return useInfiniteQuery({
    queryKey: automationKeys.runs(projectId, automationId, status),
    queryFn: ({ signal, pageParam }) =>
      projectApi<ListEnvelope<AutomationRun>>(projectId, automationPath(automationId, `/runs${pageQuery(RUNS_PAGE, pageParam, status)}`), { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? last.data.at(-1)?.id : undefined),
    refetchInterval: RUNS_POLL_MS,
  });
}

type AutomationPages = InfiniteData<ListEnvelope<Automation>>;

function withAutomation(data: AutomationPages | undefined, id: string, change: (automation: Automation) => Automation): AutomationPages | undefined {
  if (!data) return data;
  return { ...data, pages: data.pages.map((page) => ({ ...page, data: page.data.map((a) => (a.id === id ? change(a) : a)) })) };
}

/**
 * PATCH /automations/{id} {active}. Optimistic: the switch moves at once and goes back if the server
 * refuses; the answer then replaces the cached automation.
 */
export function useSetAutomationActive(projectId: string) {
  const client = useQueryClient();
  const key = automationKeys.list(projectId);
  return useMutation({
    mutationFn: ({ automationId, active }: { automationId: string; active: boolean }) =>
      projectApi<Automation>(projectId, automationPath(automationId), { method: "PATCH", body: { active } }),
    onMutate: async ({ automationId, active }) => {
      await client.cancelQueries({ queryKey: key });
      const previous = client
        .getQueryData<AutomationPages>(key)
        ?.pages.flatMap((page) => page.data)
        .find((a) => a.id === automationId);
      client.setQueryData<AutomationPages>(key, (data) => withAutomation(data, automationId, (a) => ({ ...a, active })));
      return { previous };
    },
    onError: (_error, { automationId }, context) => {
      const previous = context?.previous;
      if (previous) client.setQueryData<AutomationPages>(key, (data) => withAutomation(data, automationId, (a) => ({ ...a, active: previous.active })));
    },
    onSuccess: (automation) => client.setQueryData<AutomationPages>(key, (data) => withAutomation(data, automation.id, () => automation)),
  });
}
