"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { projectApi } from "./api";
import { projectQueryKey } from "./query";

/**
 * The project itself (settings, webhook, signing secret), its readiness report and its sandbox
 * channel. Types mirror lib/api/schemas/{projects,readiness,channels}.ts by hand so the browser bundle
 * stays free of server code.
 */

export type RoutingMode = "EXTERNAL" | "FLOWS" | "AGENT";
export const ROUTING_MODES: readonly RoutingMode[] = ["EXTERNAL", "FLOWS", "AGENT"];

export interface Channel {
  object: "channel";
  id: string;
  platform: string;
  status: "connected" | "pending" | "disconnected" | "error";
  display_name: string | null;
  phone_number: string | null;
  routing_mode: "NONE" | "FLOWS" | "EXTERNAL";
  number_mode: "sandbox" | "dedicated";
  is_sandbox: boolean;
  routing_warning: string | null;
}

export interface Project {
  object: "project";
  id: string;
  name: string;
  description: string | null;
  routing_mode: RoutingMode;
  join_code: string;
  require_opt_in: boolean;
  webhook_url: string | null;
  webhook_signing_enabled: boolean;
  /** The current signing secret; null when signing is off, or withheld from a viewer (webhook_signing_enabled tells which). */
  webhook_secret: string | null;
  channel_id: string | null;
  enrollment_channel: Channel | null;
  participant_count: number;
  flow_count: number;
  created_at: string;
  updated_at: string;
}

export type ProjectUpdate = Partial<Pick<Project, "name" | "description" | "routing_mode" | "require_opt_in" | "webhook_url">>;

export type OverallStatus = "blocked" | "sandbox_ready" | "testable_with_blockers" | "ready_with_warnings" | "ready";
export type CapabilityStatus = "ready" | "testable" | "blocked" | "warning" | "not_applicable";
export type CapabilityName = "sandbox_messaging" | "webhook" | "production_inbound" | "flows_publishing" | "templates";
export const CAPABILITY_NAMES: readonly CapabilityName[] = ["sandbox_messaging", "webhook", "production_inbound", "flows_publishing", "templates"];
export type IssueSeverity = "blocked" | "warning" | "info";

export interface ReadinessIssue {
  code: string;
  severity: IssueSeverity;
  /** sandbox, webhook, routing, channel or publishing (others may come). */
  area: string;
  title: string;
  message: string;
  next_steps: string[];
}

export interface Readiness {
  object: "project_readiness";
  project_id: string;
  project_name: string;
  overall_status: OverallStatus;
  requirements: string[];
  sandbox_testable: boolean;
  production_inbound_ready: boolean;
  effective_channel: Channel | null;
  sandbox_channel: Channel | null;
  dedicated_channel: Channel | null;
  capabilities: Record<CapabilityName, { status: CapabilityStatus; message: string }>;
  issues: ReadinessIssue[];
  next_steps: string[];
}

interface List<T> {
  object: "list";
  data: T[];
  has_more: boolean;
}

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
    queryFn: ({ signal }) => projectApi<List<Channel>>(projectId, "/channels", { signal }),
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
    mutationFn: (update: ProjectUpdate) =>
      projectApi<Project>(projectId, `/projects/${encodeURIComponent(projectId)}`, { method: "PATCH", body: update }),
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

interface RotatedSecret {
  object: "project_webhook_secret";
  project_id: string;
  webhook_secret: string;
}

/** A new signing secret; the previous one keeps signing deliveries for 24 hours. */
export function useRotateWebhookSecret(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => projectApi<RotatedSecret>(projectId, `/projects/${encodeURIComponent(projectId)}/rotate-webhook-secret`, { method: "POST" }),
    onSuccess: (rotated) => {
      client.setQueryData<Project>(projectKey(projectId), (project) =>
        project ? { ...project, webhook_secret: rotated.webhook_secret, webhook_signing_enabled: true } : project,
      );
      void client.invalidateQueries({ queryKey: projectKey(projectId) });
      void client.invalidateQueries({ queryKey: readinessKey(projectId) });
    },
  });
}
