"use client";

import { useEffect, useState } from "react";
import { useSendMessage, type ComposedContent, type Conversation, type Message } from "@/lib/client/inbox";
import { newIdempotencyKey, type PendingSend } from "./pending-send";

/**
 * Optimistic sends of the open thread: each composed message shows at once as a pending bubble, then
 * gives way to the real message as soon as the thread brings it (which may be before POST /messages
 * has answered). A failed one keeps its idempotency key, so Retry never sends twice.
 */
export function usePendingSends(projectId: string, conversation: Conversation | undefined, messages: Message[]) {
  const send = useSendMessage(projectId);
  const [pending, setPending] = useState<PendingSend[]>([]);

  useEffect(() => {
    const ids = new Set(messages.map((message) => message.id));
    setPending((current) =>
      current.some((item) => item.messageId && ids.has(item.messageId)) ? current.filter((item) => !item.messageId || !ids.has(item.messageId)) : current,
    );
  }, [messages, pending]);

  const run = (item: PendingSend) => {
    send.mutateAsync({ request: item.request, idempotencyKey: item.key }).then(
      (response) => setPending((current) => current.map((p) => (p.key === item.key ? { ...p, state: "accepted", messageId: response.id, error: null } : p))),
      (error: unknown) => setPending((current) => current.map((p) => (p.key === item.key ? { ...p, state: "failed", error } : p))),
    );
  };

  const onSend = (content: ComposedContent) => {
    if (!conversation?.last_channel_id) return;
    const item: PendingSend = {
      key: newIdempotencyKey(),
      request: { channel_id: conversation.last_channel_id, conversation_id: conversation.id, ...content },
      state: "sending",
      error: null,
      messageId: null,
      createdAt: Date.now(),
    };
    setPending((current) => [...current, item]);
    run(item);
  };

  const retry = (key: string) => {
    const item = pending.find((p) => p.key === key);
    if (!item) return;
    setPending((current) => current.map((p) => (p.key === key ? { ...p, state: "sending", error: null } : p)));
    run(item);
  };

  const discard = (key: string) => setPending((current) => current.filter((p) => p.key !== key));

  // Never draw a send twice: one the thread already brought is shown as the real message only.
  const listedIds = new Set(messages.map((message) => message.id));
  const shown = pending.filter((item) => !item.messageId || !listedIds.has(item.messageId));
  return { pending: shown, onSend, retry, discard };
}
