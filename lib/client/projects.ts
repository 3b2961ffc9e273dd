"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ListEnvelope } from "@/lib/api/schemas/common";
import type {
  ProjectRoutingModeWire as RoutingMode,
  ProjectUpdateInput as ProjectUpdate,
  ProjectWebhookSecretWire,
  ProjectWire as Project,
} from "@/lib/api/schemas/projects";
import type { FriendlyIssueWire as ReadinessIssue, ProjectReadinessWire as Readiness } from "@/lib/api/schemas/readiness";
import { projectApi } from "./api";
import type { Channel } from "./channels";
import { projectQueryKey } from "./query";

/**
 * The project itself (settings, webhook, signing secret), its readiness report and its sandbox
 * channel. The shapes are the API's own (lib/api/schemas/{projects,readiness,channels}.ts), imported
 * as types only: nothing of the server reaches the browser bundle.
 */

export type { Project, ProjectUpdate, Readiness, ReadinessIssue, RoutingMode };
/** The project's routing modes in the order the dashboard offers them. */
export { PROJECT_ROUTING_MODES as ROUTING_MODES } from "@/lib/shared/routing-modes";

export type OverallStatus = Readiness["overall_status"];
export type CapabilityName = keyof Readiness["capabilities"];
export type CapabilityStatus = Readiness["capabilities"][CapabilityName]["status"];
export const CAPABILITY_NAMES = [
  "sandbox_messaging",
  "webhook",
  "production_inbound",
  "flows_publishing",
  "templates",
] as const satisfies readonly CapabilityName[];

const projectKey = (projectId: string) => projectQueryKey(projectId, "project");
const readinessKey = (projectId: string) => projectQueryKey(projectId, "readiness");

export function useProject(projectId: string) {
  return useQuery({
    queryKey: projectKey(projectId),
    queryFn: ({ signal }) => projectApi<Project>(projectId, `/projects/${encodeURIComponent(projectId)}`, { signal }),
  });
}

export function useReadiness(projectId: string) {
  return useQuery({
    queryKey: readinessKey(projectId),
    queryFn: ({ signal }) => projectApi<Readiness>(projectId, `/projects/${encodeURIComponent(projectId)}/readiness`, { signal }),
  });
}

/** The shared sandbox channel as this project sees it (the channel whose number_mode is sandbox), or null. */
export function useSandboxChannel(projectId: string) {
  return useQuery({
    // Under "channels" so that whoever invalidates the project's channels refreshes this too.
    queryKey: projectQueryKey(projectId, "channels", { view: "sandbox" }),
    queryFn: ({ signal }) => projectApi<ListEnvelope<Channel>>(projectId, "/channels", { signal }),
    select: (list) => list.data.find((channel) => channel.number_mode === "sandbox") ?? null,
  });
}

/**
 * PATCH the project. Optimistic by default: the cached project changes at once (switches and radios
 * feel instant) and is rolled back if the server refuses. Text fields pass `optimistic: false`: the
 * draft is already on screen, and a value the server may refuse should not reach other views.
 * Readiness is refetched either way because routing and the webhook change it.
 */
export function useUpdateProject(projectId: string, { optimistic = true }: { optimistic?: boolean } = {}) {
  const client = useQueryClient();
  const mutationKey = ["project-update", projectId];
  // Another change to this project still on its way: its optimistic value must survive this one's answer.
  const othersPending = () => client.isMutating({ mutationKey }) > 1;
  return useMutation({
    mutationKey,
    // One PATCH at a time per project, so the server applies them in the order the operator made them.
    scope: { id: `project-update:${projectId}` },
    mutationFn: (update: ProjectUpdate) => projectApi<Project>(projectId, `/projects/${encodeURIComponent(projectId)}`, { method: "PATCH", body: update }),
    onMutate: async (update) => {
      if (!optimistic) return { previous: undefined };
      await client.cancelQueries({ queryKey: projectKey(projectId) });
      const previous = client.getQueryData<Project>(projectKey(projectId));
      if (previous) client.setQueryData<Project>(projectKey(projectId), { ...previous, ...update });
      return { previous };
    },
    onError: (_error, update, context) => {
      const previous = context?.previous;
      if (!previous) return;
      // Roll back only the fields this change touched; a later pending change keeps its own.
      const rollback = Object.fromEntries(Object.keys(update).map((field) => [field, previous[field as keyof Project]]));
      client.setQueryData<Project>(projectKey(projectId), (current) => (current ? { ...current, ...rollback } : previous));
    },
    onSuccess: (project) => {
      if (!othersPending()) client.setQueryData(projectKey(projectId), project);
    },
    onSettled: (_project, error) => {
      if (othersPending()) return;
      // After a refusal the cached project may hold skipped answers: read it again.
      if (error) void client.invalidateQueries({ queryKey: projectKey(projectId) });
      void client.invalidateQueries({ queryKey: readinessKey(projectId) });
      void client.invalidateQueries({ queryKey: projectQueryKey(projectId, "channels") });
    },
  });
}

/** A new signing secret; the previous one keeps signing deliveries for 24 hours. */
export function useRotateWebhookSecret(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => projectApi<ProjectWebhookSecretWire>(projectId, `/projects/${encodeURIComponent(projectId)}/rotate-webhook-secret`, { method: "POST" }),
    onSuccess: (rotated) => {
      client.setQueryData<Project>(projectKey(projectId), (project) =>
        project ? { ...project, webhook_secret: rotated.webhook_secret, webhook_signing_enabled: true } : project,
      );
      void client.invalidateQueries({ queryKey: projectKey(projectId) });
      void client.invalidateQueries({ queryKey: readinessKey(projectId) });
    },
  });
}
