"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ListEnvelope } from "@/lib/api/schemas/common";
import type { ConversationWire as Conversation } from "@/lib/api/schemas/contacts";
import type {
  FlowCreateRequestWire as FlowCreateRequest,
  FlowDispatchWire as FlowDispatch,
  FlowDraftWire as FlowDraft,
  FlowSendRequestWire as FlowSendRequest,
  FlowSendResponseWire as FlowSendResponse,
  FlowSubmissionWire as FlowSubmission,
  FlowUpdateRequestWire as FlowUpdateRequest,
  FlowWire as Flow,
} from "@/lib/api/schemas/flows";
import type { FlowChannelsWire as FlowChannels } from "@/lib/dashboard/routes/flow-channels";
import { projectApi } from "./api";
import { projectQueryKey } from "./query";

/**
 * Flows of a project (docs/spec/decisions.md "Flows"): the list, one flow with its draft and compiled
 * Flow JSON, save / publish / deprecate / delete, sending to a sandbox tester, and each flow's
 * dispatches and submissions. The shapes are the API's own (lib/api/schemas/flows.ts), types only.
 */
export type { Flow, FlowChannels, FlowCreateRequest, FlowDispatch, FlowDraft, FlowSendRequest, FlowSendResponse, FlowSubmission, FlowUpdateRequest };

export type FlowStatus = Flow["status"];
export type FlowMetaStatus = NonNullable<Flow["meta_status"]>;
export type FlowValidationIssue = NonNullable<Flow["validation_errors"]>[number];
export type FlowDraftScreen = FlowDraft["screens"][number];
export type FlowDraftField = FlowDraftScreen["fields"][number];
export type FlowDraftFieldType = FlowDraftField["type"];
export type FlowDraftOption = NonNullable<FlowDraftField["options"]>[number];
export type FlowChannel = FlowChannels["senders"][number];

/** The shared sandbox channel (lib/domain/channels/sandbox.ts SANDBOX_CHANNEL_ID; a copy: the browser cannot import the domain). */
export const SANDBOX_CHANNEL_ID = "ch_sandbox";

/** How often an unsettled publish is asked about: PUBLISHING lasts the few seconds the provider takes. */
const PUBLISH_POLL_MS = 1_500;
const ACTIVITY_POLL_MS = 5_000;
const LIST_PAGE = 100;

const flowKeys = {
  all: (projectId: string) => projectQueryKey(projectId, "flows"),
  list: (projectId: string) => projectQueryKey(projectId, "flows", "list"),
  flow: (projectId: string, flowId: string) => projectQueryKey(projectId, "flows", "flow", flowId),
  dispatches: (projectId: string, flowId: string) => projectQueryKey(projectId, "flows", "dispatches", flowId),
  submissions: (projectId: string, flowId: string) => projectQueryKey(projectId, "flows", "submissions", flowId),
  testers: (projectId: string) => projectQueryKey(projectId, "flows", "sandbox-testers"),
  channels: (projectId: string, flowId: string) => projectQueryKey(projectId, "flows", "channels", flowId),
};

const flowPath = (flowId: string, suffix = "") => `/flows/${encodeURIComponent(flowId)}${suffix}`;

const isPublishing = (flow: Pick<Flow, "meta_status"> | undefined) => flow?.meta_status === "PUBLISHING";

/** GET /flows, newest first; "Load more" fetches the next page. Polls while a listed flow is publishing. */
export function useFlows(projectId: string) {
  return useInfiniteQuery({
    queryKey: flowKeys.list(projectId),
    queryFn: ({ signal, pageParam }) =>
      projectApi<ListEnvelope<Flow>>(projectId, `/flows?limit=${LIST_PAGE}${pageParam ? `&starting_after=${encodeURIComponent(pageParam)}` : ""}`, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? last.data.at(-1)?.id : undefined),
    refetchInterval: (query) => (query.state.data?.pages.some((page) => page.data.some(isPublishing)) ? PUBLISH_POLL_MS : false),
  });
}

/** GET /flows/{id}?include=flow_json,draft. Polls while a publish is in flight, until PUBLISHED or PUBLISH_FAILED. */
export function useFlow(projectId: string, flowId: string) {
  return useQuery({
    queryKey: flowKeys.flow(projectId, flowId),
    queryFn: ({ signal }) => projectApi<Flow>(projectId, flowPath(flowId, "?include=flow_json,draft"), { signal }),
    refetchInterval: (query) => (isPublishing(query.state.data) ? PUBLISH_POLL_MS : false),
  });
}

/**
 * Answers of writes may leave out flow_json and draft (they come with ?include only): keep the cached
 * ones rather than blanking the editor's preview, then refetch the full flow.
 */
function useStoreFlow(projectId: string) {
  const client = useQueryClient();
  return (flow: Flow) => {
    // Nothing cached yet (a create): the editor must wait for the full flow, or it would take a draft
    // flow without its draft for a Flow JSON one.
    if (client.getQueryData<Flow>(flowKeys.flow(projectId, flow.id))) {
      client.setQueryData<Flow>(flowKeys.flow(projectId, flow.id), (cached) => ({
        ...flow,
        flow_json: flow.flow_json !== undefined ? flow.flow_json : cached?.flow_json,
        draft: flow.draft !== undefined ? flow.draft : cached?.draft,
      }));
    }
    void client.invalidateQueries({ queryKey: flowKeys.flow(projectId, flow.id) });
    void client.invalidateQueries({ queryKey: flowKeys.list(projectId) });
  };
}

/** POST /flows. */
export function useCreateFlow(projectId: string) {
  const store = useStoreFlow(projectId);
  return useMutation({
    mutationFn: (input: FlowCreateRequest) => projectApi<Flow>(projectId, "/flows", { method: "POST", body: input }),
    onSuccess: store,
  });
}

/** PATCH /flows/{id}: a save (draft or flow_json) or new details; validation runs on every save. */
export function useUpdateFlow(projectId: string, flowId: string) {
  const store = useStoreFlow(projectId);
  return useMutation({
    mutationFn: (input: FlowUpdateRequest) => projectApi<Flow>(projectId, flowPath(flowId), { method: "PATCH", body: input }),
    onSuccess: store,
  });
}

/** POST /flows/{id}/publish: answers at once with meta_status PUBLISHING; useFlow then polls until it settles. */
export function usePublishFlow(projectId: string, flowId: string) {
  const store = useStoreFlow(projectId);
  return useMutation({
    mutationFn: () => projectApi<Flow>(projectId, flowPath(flowId, "/publish"), { method: "POST" }),
    onSuccess: store,
  });
}

/** POST /flows/{id}/refresh: read the provider's status and validation errors now (e.g. after BLOCKED). */
export function useRefreshFlow(projectId: string, flowId: string) {
  const store = useStoreFlow(projectId);
  return useMutation({
    mutationFn: () => projectApi<Flow>(projectId, flowPath(flowId, "/refresh"), { method: "POST" }),
    onSuccess: store,
  });
}

/** POST /flows/{id}/deprecate: PUBLISHED → DEPRECATED (no longer sendable). */
export function useDeprecateFlow(projectId: string, flowId: string) {
  const store = useStoreFlow(projectId);
  return useMutation({
    mutationFn: () => projectApi<Flow>(projectId, flowPath(flowId, "/deprecate"), { method: "POST" }),
    onSuccess: store,
  });
}

/** DELETE /flows/{id}: only a flow that was never published (else 409 flow_published). */
export function useDeleteFlow(projectId: string, flowId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => projectApi<{ object: "flow"; id: string; deleted: true }>(projectId, flowPath(flowId), { method: "DELETE" }),
    onSuccess: () => {
      client.removeQueries({ queryKey: flowKeys.flow(projectId, flowId) });
      void client.invalidateQueries({ queryKey: flowKeys.list(projectId) });
    },
  });
}

/**
 * POST /flows/send. `idempotencyKey` travels as the Idempotency-Key header: one per opened send dialog,
 * reused if the operator retries after a lost answer, so the tester never gets the flow twice.
 */
export function useSendFlow(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ request, idempotencyKey }: { request: FlowSendRequest; idempotencyKey: string }) =>
      projectApi<FlowSendResponse>(projectId, "/flows/send", { method: "POST", body: request, headers: { "Idempotency-Key": idempotencyKey } }),
    onSuccess: (dispatch) => void client.invalidateQueries({ queryKey: flowKeys.dispatches(projectId, dispatch.flow_id) }),
  });
}

/** GET /flows/{id}/dispatches, newest first (one page of 100); polls so a completion shows up on its own. */
export function useFlowDispatches(projectId: string, flowId: string) {
  return useQuery({
    queryKey: flowKeys.dispatches(projectId, flowId),
    queryFn: ({ signal }) => projectApi<ListEnvelope<FlowDispatch>>(projectId, flowPath(flowId, "/dispatches?limit=100"), { signal }),
    refetchInterval: ACTIVITY_POLL_MS,
  });
}

/** GET /flows/{id}/submissions, newest first (one page of 100); polls like the dispatches. */
export function useFlowSubmissions(projectId: string, flowId: string) {
  return useQuery({
    queryKey: flowKeys.submissions(projectId, flowId),
    queryFn: ({ signal }) => projectApi<ListEnvelope<FlowSubmission>>(projectId, flowPath(flowId, "/submissions?limit=100"), { signal }),
    refetchInterval: ACTIVITY_POLL_MS,
  });
}

/** The sandbox testers a flow can be sent to: the project's conversations on the shared sandbox channel. */
export function useSandboxTesters(projectId: string, enabled = true) {
  return useQuery({
    queryKey: flowKeys.testers(projectId),
    queryFn: ({ signal }) =>
      projectApi<ListEnvelope<Conversation>>(projectId, `/conversations?channel_id=${encodeURIComponent(SANDBOX_CHANNEL_ID)}&limit=100`, { signal }),
    enabled,
    select: (page) => page.data,
  });
}

/**
 * GET /flows/{id}/channels (dashboard): where the next publish goes and which channels can send the
 * published version. Asked again whenever the published version or its business account changes (a
 * publish settles through useFlow's polling, not through a mutation here).
 */
export function useFlowChannels(projectId: string, flow: Pick<Flow, "id" | "published_version" | "meta_waba_id" | "status">) {
  return useQuery({
    queryKey: [...flowKeys.channels(projectId, flow.id), flow.published_version, flow.meta_waba_id, flow.status],
    queryFn: ({ signal }) => projectApi<FlowChannels>(projectId, flowPath(flow.id, "/channels"), { signal }),
  });
}

/** POST /flows/{id}/channels {channel_id}: publishes the published version under that channel's business account too. */
export function usePublishFlowOnChannel(projectId: string, flowId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (channelId: string) => projectApi<FlowChannels>(projectId, flowPath(flowId, "/channels"), { method: "POST", body: { channel_id: channelId } }),
    onSuccess: () => void client.invalidateQueries({ queryKey: flowKeys.channels(projectId, flowId) }),
  });
}
