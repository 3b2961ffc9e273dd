"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from "@tanstack/react-query";
import type { z } from "zod";
import type { ListEnvelope } from "@/lib/api/schemas/common";
import type { TemplateCreateRequest as CreateSchema, TemplateWire as Template } from "@/lib/api/schemas/templates";
import { projectApi } from "./api";
import { projectQueryKey } from "./query";

/**
 * Message templates of a project (docs/spec/decisions.md "Templates"): the list with its filters,
 * submitting one for review, and deleting one (at the provider too). The shapes are the API's own
 * (lib/api/schemas/templates.ts), types only.
 */
export type { Template };

export type TemplateStatus = Template["status"];
export type TemplateCreateRequest = z.input<typeof CreateSchema>;

export interface TemplateFilters {
  channel_id?: string | undefined;
  status?: TemplateStatus | undefined;
}

/**
 * How often a list holding a PENDING template asks again. The simulator reviews in seconds, the real
 * provider in minutes to hours; react-query pauses the timer while the tab is hidden.
 */
const REVIEW_POLL_MS = 2_500;
const LIST_PAGE = 100;

const templateKeys = {
  all: (projectId: string) => projectQueryKey(projectId, "templates"),
  list: (projectId: string, filters: TemplateFilters) => projectQueryKey(projectId, "templates", "list", { ...filters }),
  one: (projectId: string, id: string) => projectQueryKey(projectId, "templates", "one", id),
};

const isPendingReview = (template: Pick<Template, "status">) => template.status === "PENDING";

function listQuery(filters: TemplateFilters, startingAfter: string | undefined): string {
  const query = new URLSearchParams({ limit: String(LIST_PAGE) });
  if (filters.channel_id) query.set("channel_id", filters.channel_id);
  if (filters.status) query.set("status", filters.status);
  if (startingAfter) query.set("starting_after", startingAfter);
  return `?${query}`;
}

/** GET /templates?channel_id=&status=, newest first; polls while a listed template waits for its review. */
export function useTemplates(projectId: string, filters: TemplateFilters = {}) {
  return useInfiniteQuery({
    queryKey: templateKeys.list(projectId, filters),
    queryFn: ({ signal, pageParam }) => projectApi<ListEnvelope<Template>>(projectId, `/templates${listQuery(filters, pageParam)}`, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? last.data.at(-1)?.id : undefined),
    refetchInterval: (query) => (query.state.data?.pages.some((page) => page.data.some(isPendingReview)) ? REVIEW_POLL_MS : false),
  });
}

/** GET /templates/{id}: one template with its components (a broadcast's page checks a CSV against its variables). */
export function useTemplate(projectId: string, id: string) {
  return useQuery({
    queryKey: templateKeys.one(projectId, id),
    queryFn: ({ signal }) => projectApi<Template>(projectId, `/templates/${encodeURIComponent(id)}`, { signal }),
  });
}

/**
 * POST /templates: 200 with the PENDING template; 400 invalid_request (issues by path such as
 * `components.1.text`), 409 template_exists, 412 channel_not_ready (`blockers`), 422
 * feature_unsupported_on_channel or template_rejected (`failure`).
 */
export function useCreateTemplate(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TemplateCreateRequest) => projectApi<Template>(projectId, "/templates", { method: "POST", body: input }),
    onSuccess: (template) => {
      // The unfiltered list shows the new PENDING template at once, before its refetch lands.
      client.setQueryData<InfiniteData<ListEnvelope<Template>>>(templateKeys.list(projectId, {}), (data) =>
        data?.pages[0] ? { ...data, pages: [{ ...data.pages[0], data: [template, ...data.pages[0].data] }, ...data.pages.slice(1)] } : data,
      );
      void client.invalidateQueries({ queryKey: templateKeys.all(projectId) });
    },
  });
}

/** DELETE /templates/{id}: at the provider first; a provider failure (502) deletes nothing. */
export function useDeleteTemplate(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (templateId: string) =>
      projectApi<{ object: "whatsapp_template"; id: string; deleted: true }>(projectId, `/templates/${encodeURIComponent(templateId)}`, { method: "DELETE" }),
    onSuccess: () => client.invalidateQueries({ queryKey: templateKeys.all(projectId) }),
  });
}
