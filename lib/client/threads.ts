"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ListEnvelope } from "@/lib/api/schemas/common";
import type { ConversationWire } from "@/lib/api/schemas/contacts";
import type { ThreadControlStateWire } from "@/lib/api/schemas/agent-threads";
import type { BusinessAgent } from "@/lib/api/schemas/business-agents";
import type { z } from "@/lib/api/zod";
import { projectApi } from "./api";
import { inboxKeys } from "./inbox";

/**
 * Thread control from the inbox (docs/spec/decisions.md "Business agents"): the channel's agent and
 * POST /business-agents/thread-control. Wire shapes are the API's own, imported as types only.
 */
export type ThreadOwner = NonNullable<ConversationWire["thread_owner"]>;
export type ChannelAgent = Pick<z.infer<typeof BusinessAgent>, "id" | "status" | "channel_id">;
export type ThreadControlState = ThreadControlStateWire;

/** GET /business-agents?channel_id=: the channel's agent (one per channel), or null. */
export function useChannelAgent(projectId: string, channelId: string | null, enabled = true) {
  return useQuery({
    queryKey: [...inboxKeys.all(projectId), "agent", channelId ?? ""],
    queryFn: async ({ signal }) => {
      const page = await projectApi<ListEnvelope<ChannelAgent>>(projectId, `/business-agents?channel_id=${encodeURIComponent(channelId!)}&limit=1`, { signal });
      return page.data[0] ?? null;
    },
    enabled: enabled && Boolean(channelId),
    staleTime: 30_000,
  });
}

export interface ThreadMove {
  conversationId: string;
  channelId: string;
  contactId: string;
  /** Give back to this agent; without it the thread passes to the business inbox (Take over). */
  businessAgentId?: string;
  reason?: string;
}

/** A pass from the inbox; afterwards the conversation (its owner and handoff) and the lists refetch. */
export function usePassThread(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (move: ThreadMove) =>
      projectApi<ThreadControlState>(projectId, "/business-agents/thread-control", {
        method: "POST",
        body: {
          action: "pass",
          channel_id: move.channelId,
          contact_id: move.contactId,
          ...(move.businessAgentId ? { business_agent_id: move.businessAgentId } : {}),
          ...(move.reason ? { reason: move.reason } : {}),
        },
      }),
    onSuccess: (_state, move) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: inboxKeys.conversation(projectId, move.conversationId) }),
        queryClient.invalidateQueries({ queryKey: inboxKeys.conversations(projectId) }),
      ]),
  });
}
