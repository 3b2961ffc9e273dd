"use client";

import { useMutation, useQuery, useQueryClient, type InfiniteData } from "@tanstack/react-query";
import type { ListEnvelope } from "@/lib/api/schemas/common";
import { projectApi } from "./api";
import { automationKeys, type Automation, type AutomationStep, type AutomationTrigger } from "./automations";
import type { ConfigValidation } from "./config";
import { projectQueryKey } from "./query";

/**
 * The builder's reads and writes (issue 34): one automation, checked with `POST /config/validate`,
 * then created, redefined, moved or deleted through the API, which applies config validate's own
 * checks and answers 422 `config_invalid` with `issues` whose paths are relative to the automation
 * (docs/api-decisions.md "Automations"). Every write also changes what GET /config exports: the
 * Config page's queries read again.
 */

export interface AutomationWrite {
  key: string;
  name: string;
  trigger: AutomationTrigger;
  steps: AutomationStep[];
  active: boolean;
  position?: number;
}

type AutomationPatch = Partial<Omit<AutomationWrite, "key">>;

export interface AutomationDeleted {
  object: "automation";
  id: string;
  deleted: true;
}

const automationPath = (automationId: string) => `/automations/${encodeURIComponent(automationId)}`;

/** GET /automations/{id}: the builder opens on the stored definition. */
export function useAutomation(projectId: string, automationId: string | null) {
  return useQuery({
    queryKey: [...automationKeys.all(projectId), "one", automationId ?? ""],
    queryFn: ({ signal }) => projectApi<Automation>(projectId, automationPath(automationId!), { signal }),
    enabled: automationId !== null,
  });
}

/** After any write: the list, the one automation, its runs, and the exported config document. */
function useRefreshAfterWrite(projectId: string) {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: automationKeys.all(projectId) });
    void client.invalidateQueries({ queryKey: projectQueryKey(projectId, "config") });
  };
}

/**
 * POST /automations (create, with an Idempotency-Key: one per opened builder, so a retried click
 * cannot make two) or PATCH /automations/{id} (redefine; the key never changes).
 */
export function useSaveAutomation(projectId: string) {
  const refresh = useRefreshAfterWrite(projectId);
  return useMutation({
    mutationFn: ({ id, write, idempotencyKey }: { id: string | null; write: AutomationWrite; idempotencyKey: string }) => {
      if (id === null) {
        return projectApi<Automation>(projectId, "/automations", { method: "POST", body: write, headers: { "Idempotency-Key": idempotencyKey } });
      }
      const { key: _key, ...patch } = write;
      return projectApi<Automation>(projectId, automationPath(id), { method: "PATCH", body: patch satisfies AutomationPatch });
    },
    onSuccess: refresh,
  });
}

/** PATCH /automations/{id} {position}: the automation moves there, the others shift (config order decides between keywords). */
export function useMoveAutomation(projectId: string) {
  const refresh = useRefreshAfterWrite(projectId);
  return useMutation({
    mutationFn: ({ automationId, position }: { automationId: string; position: number }) =>
      projectApi<Automation>(projectId, automationPath(automationId), { method: "PATCH", body: { position } }),
    onSuccess: refresh,
  });
}

/**
 * DELETE /automations/{id}: its runs go with it. The card leaves the cached list at once and only the
 * list and the config are read again: asking again for the deleted automation's runs would be a 404.
 */
export function useDeleteAutomation(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (automationId: string) => projectApi<AutomationDeleted>(projectId, automationPath(automationId), { method: "DELETE" }),
    onSuccess: (_deleted, automationId) => {
      client.setQueryData<InfiniteData<ListEnvelope<Automation>>>(automationKeys.list(projectId), (data) =>
        data ? { ...data, pages: data.pages.map((page) => ({ ...page, data: page.data.filter((a) => a.id !== automationId) })) } : data,
      );
      void client.invalidateQueries({ queryKey: automationKeys.list(projectId) });
      void client.invalidateQueries({ queryKey: projectQueryKey(projectId, "config") });
    },
  });
}

/** POST /config/validate: the document with this automation changed, judged as an apply would judge it. Writes nothing. */
export function validateConfig(projectId: string, document: unknown, signal?: AbortSignal) {
  return projectApi<ConfigValidation>(projectId, "/config/validate", { method: "POST", body: document, signal });
}
