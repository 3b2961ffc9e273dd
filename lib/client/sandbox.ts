"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ListEnvelope } from "@/lib/api/schemas/common";
import type { ProjectWire as Project } from "@/lib/api/schemas/projects";
import { projectApi } from "./api";
import { inboxKeys, type Conversation } from "./inbox";
import { projectQueryKey } from "./query";

/**
 * The sandbox phone: act as a customer through the built-in simulator. Its operations are
 * dashboard-only (lib/dashboard/routes/sandbox-phone.ts has the schemas these types mirror); the
 * project and conversations are the API's own shapes.
 */

type CustomerMessageType = "text" | "image" | "video" | "audio" | "document" | "location" | "button_reply" | "list_reply";

export interface CustomerAction {
  channel_id: string;
  from: string;
  name?: string;
  type: CustomerMessageType;
  text?: string;
  /** Without media (or without media.link) the simulator attaches a small placeholder file. */
  media?: { link?: string; caption?: string; mime_type?: string; filename?: string };
  location?: { latitude: number; longitude: number; name?: string; address?: string };
  reply?: { id: string; title: string };
  reply_to?: string;
}

export interface CustomerActionResult {
  object: "simulated_customer_message";
  channel_id: string;
  from: string;
  provider_message_id: string;
  /** Our provider endpoint's HTTP status for the signed webhook the simulator posted. */
  webhook_status: number;
}

/** What the business sent to the simulated customer; `body` is the provider's request body. */
export interface BusinessMessage {
  object: "simulated_business_message";
  id: string;
  type: string;
  text: string | null;
  status: string;
  sent_at: string;
  body: Record<string, unknown>;
}

/** The project fields the phone's setup card needs (GET /projects/{id}). */
export type SandboxProject = Pick<Project, "id" | "name" | "join_code" | "channel_id">;

const sandboxKey = (projectId: string, ...parts: string[]) => projectQueryKey(projectId, "sandbox", ...parts);

const CUSTOMER_INBOX_POLL_MS = 1_500;

export function useSandboxProject(projectId: string) {
  return useQuery({
    queryKey: sandboxKey(projectId, "project"),
    queryFn: ({ signal }) => projectApi<SandboxProject>(projectId, `/projects/${encodeURIComponent(projectId)}`, { signal }),
    staleTime: 60_000,
  });
}

export interface SandboxTester {
  phone: string;
  joined_at: string;
}

/** GET /sandbox/testers: the numbers that joined this project on the sandbox, the latest first. */
export function useSandboxTesters(projectId: string) {
  return useQuery({
    queryKey: sandboxKey(projectId, "testers"),
    queryFn: ({ signal }) => projectApi<ListEnvelope<SandboxTester>>(projectId, "/sandbox/testers", { signal }),
    select: (page) => page.data,
  });
}

/** GET /sandbox/inbox: everything this project sent to the customer on the channel, oldest first. */
export function useCustomerInbox(projectId: string, channelId: string | null, from: string) {
  return useQuery({
    queryKey: sandboxKey(projectId, "inbox", channelId ?? "", from),
    queryFn: ({ signal }) =>
      projectApi<ListEnvelope<BusinessMessage>>(projectId, `/sandbox/inbox?${new URLSearchParams({ channel_id: channelId!, from })}`, { signal }),
    enabled: Boolean(channelId) && from.trim().length >= 3,
    refetchInterval: CUSTOMER_INBOX_POLL_MS,
    select: (page) => page.data,
  });
}

/** POST /sandbox/customer-messages: the simulator sends our provider endpoint a signed inbound webhook. */
export function useSendAsCustomer(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: CustomerAction) => projectApi<CustomerActionResult>(projectId, "/sandbox/customer-messages", { method: "POST", body: action }),
    onSuccess: () => {
      // A first message (or a join) creates the conversation: let the phone's "Open in inbox" find it.
      void queryClient.invalidateQueries({ queryKey: sandboxKey(projectId, "conversations") });
      void queryClient.invalidateQueries({ queryKey: inboxKeys.conversations(projectId) });
    },
  });
}

const digits = (value: string | null) => (value ?? "").replace(/\D/g, "");

/**
 * The project's conversation with this customer number, if any. The API has no phone filter, so this
 * looks through the newest 100 conversations (a sandbox tester's conversation is a recent one).
 */
export function useConversationForNumber(projectId: string, from: string) {
  const wanted = digits(from);
  return useQuery({
    queryKey: sandboxKey(projectId, "conversations"),
    queryFn: ({ signal }) => projectApi<ListEnvelope<Conversation>>(projectId, "/conversations?limit=100", { signal }),
    refetchInterval: 5_000,
    enabled: wanted.length >= 3,
    select: (page) => page.data.find((conversation) => digits(conversation.phone) === wanted) ?? null,
  });
}

/** Who the phone is and which received flow it opens: the sandbox flow operations' common fields. */
export interface FlowCustomer {
  channel_id: string;
  from: string;
  /** The provider flow id the message carried (action.parameters.flow_id). */
  flowId: string;
}

/** GET /sandbox/flows/{id}: the provider's Flow JSON of a flow this customer received. */
export interface ReceivedFlow {
  object: "simulated_flow";
  id: string;
  name: string;
  status: string;
  flow_json: Record<string, unknown>;
  has_endpoint: boolean;
}

/** POST /sandbox/flows/{id}/exchange: our provider endpoint's status and the data endpoint's decrypted answer. */
export interface FlowExchangeResult {
  object: "simulated_flow_exchange";
  endpoint_status: number;
  /** `{screen, data}`; screen "SUCCESS" ends the flow with data.extension_message_response.params. */
  response: Record<string, unknown> | null;
  /** Why there is no answer (our endpoint's refusal, or an answer that did not decrypt). */
  endpoint_error: string | null;
}

export type FlowExchangeAction = "INIT" | "BACK" | "data_exchange";

const flowPath = (flowId: string, suffix = "") => `/sandbox/flows/${encodeURIComponent(flowId)}${suffix}`;

/** The Flow JSON, fetched when the customer opens the flow (the provider's copy does not change under a sent message). */
export function useReceivedFlow(projectId: string, customer: FlowCustomer | null) {
  return useQuery({
    queryKey: sandboxKey(projectId, "flow", customer?.channel_id ?? "", customer?.from ?? "", customer?.flowId ?? ""),
    queryFn: ({ signal }) =>
      projectApi<ReceivedFlow>(projectId, `${flowPath(customer!.flowId)}?${new URLSearchParams({ channel_id: customer!.channel_id, from: customer!.from })}`, {
        signal,
      }),
    enabled: customer !== null,
    staleTime: Infinity,
    retry: false,
  });
}

/** One call to the flow's data endpoint through the simulator. */
export function useFlowExchange(projectId: string) {
  return useMutation({
    mutationFn: ({ flowId, ...body }: FlowCustomer & { flow_token: string; action: FlowExchangeAction; screen?: string; data?: Record<string, unknown> }) =>
      projectApi<FlowExchangeResult>(projectId, flowPath(flowId, "/exchange"), { method: "POST", body }),
  });
}

/** Submits the flow: the simulator sends svc the customer's nfm_reply. */
export function useCompleteFlow(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ flowId, ...body }: FlowCustomer & { name?: string; flow_token: string; response: Record<string, unknown> }) =>
      projectApi<CustomerActionResult>(projectId, flowPath(flowId, "/complete"), { method: "POST", body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: inboxKeys.conversations(projectId) }),
  });
}
