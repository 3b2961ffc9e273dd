"use client";

import { useState } from "react";
import { isApiError } from "@/lib/client/api";
import type { Channel } from "@/lib/client/channels";
import { useChannels, useConversationMessages } from "@/lib/client/inbox";
import { can, useCurrentProject } from "@/lib/client/me";
import { useCompleteFlow, useConversationForNumber, useCustomerInbox, useSandboxProject, useSandboxTesters, useSendAsCustomer } from "@/lib/client/sandbox";
import type { FlowHandlers, ReplyChoice } from "./business-actions";
import { useCustomerIdentity, useSentLog, type SentItem, type SentKind } from "./customer-store";
import type { ReceivedFlowMessage } from "./received-flow";
import { inboundAsSent } from "./inbound-as-sent";
import type { PhoneAction } from "./phone-composer";

// The simulator can act as a customer on these platforms only.
const CUSTOMER_PLATFORMS = new Set(["PLATFORM_A", "PLATFORM_B", "PLATFORM_C"]);

/**
 * Everything the sandbox phone needs, for the Sandbox page and for any page that puts the phone beside
 * its own work (the automation builder tests from it): who the customer is, the channel, what each
 * side sent, and sending as the customer through the built-in provider simulator, which signs and
 * posts a real inbound webhook to svc, so everything downstream sees a genuine customer message.
 */
export function useSandboxPhone(projectId: string) {
  const { role, isLoading: roleLoading } = useCurrentProject();
  const canWrite = can(role, "write");
  const project = useSandboxProject(projectId);
  const channels = useChannels(projectId);
  const testers = useSandboxTesters(projectId);
  // The phone opens as the latest tester who joined; if the list can't load, as before (a number of its own).
  const [identity, updateIdentity] = useCustomerIdentity(projectId, testers.data?.map((tester) => tester.phone) ?? (testers.isError ? [] : undefined));

  const usable = channels.data?.filter((item) => CUSTOMER_PLATFORMS.has(item.platform) && item.status === "connected");
  const channel: Channel | null =
    usable?.find((item) => item.id === identity?.channelId) ??
    usable?.find((item) => item.id === project.data?.channel_id) ??
    usable?.find((item) => item.is_sandbox) ??
    usable?.[0] ??
    null;
  const from = identity?.from ?? "";

  const inbox = useCustomerInbox(projectId, channel?.id ?? null, from);
  const conversation = useConversationForNumber(projectId, from);
  const log = useSentLog(projectId, channel?.id ?? null, identity ? from : null);
  const sendAsCustomer = useSendAsCustomer(projectId);
  const recorded = useConversationMessages(projectId, conversation.data ?? undefined);
  const completeFlow = useCompleteFlow(projectId);
  const [openFlow, setOpenFlow] = useState<ReceivedFlowMessage | null>(null);
  const [submittedHere, setSubmittedHere] = useState<ReadonlySet<string>>(new Set());

  // The phone's bubbles: what this browser sent, plus customer messages svc recorded that it did not.
  const localIds = new Set(log.items.map((item) => item.providerMessageId).filter(Boolean));
  // svc can record a message before the phone's own request returns with its id: while one is in
  // flight, recorded messages from around then wait, so the bubble does not show twice.
  const inFlightSince = Math.min(...log.items.filter((item) => item.state === "sending").map((item) => Date.parse(item.at) - 10_000));
  const sentBubbles = [
    ...log.items,
    ...recorded.messages
      .filter((message) => message.direction === "inbound" && message.channel_id === channel?.id && !localIds.has(message.platform_message_id ?? ""))
      .filter((message) => Date.parse(message.timestamp) < inFlightSince)
      .map(inboundAsSent),
  ];

  const inboxHref = `/projects/${encodeURIComponent(projectId)}/inbox`;
  const conversationHref = conversation.data ? `${inboxHref}?c=${encodeURIComponent(conversation.data.id)}` : null;
  // On the shared sandbox a number without a conversation here has not joined: svc drops its messages.
  const joined = !channel?.is_sandbox ? true : conversation.isSuccess ? conversation.data !== null : null;
  const otherProject = isApiError(inbox.error) && inbox.error.status === 409 ? inbox.error : null;
  const canSend = canWrite && Boolean(channel) && Boolean(identity) && !otherProject;

  const send = (action: PhoneAction) => {
    if (!channel || !identity) return;
    const localId = `local_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
    const item: SentItem = {
      localId,
      at: new Date().toISOString(),
      kind: action.type as SentKind,
      state: "sending",
      ...(action.text ? { text: action.text } : {}),
      ...(action.media?.link ? { link: action.media.link } : {}),
      ...(action.media?.caption ? { caption: action.media.caption } : {}),
      ...(action.location ? { location: action.location } : {}),
      ...(action.reply ? { reply: action.reply } : {}),
    };
    log.add(item);
    sendAsCustomer.mutateAsync({ channel_id: channel.id, from: identity.from, ...(identity.name ? { name: identity.name } : {}), ...action }).then(
      (result) => log.patch(localId, { state: "sent", webhookStatus: result.webhook_status, providerMessageId: result.provider_message_id }),
      (error: unknown) => log.patch(localId, { state: "failed", error: error instanceof Error ? error.message : "The simulator refused it." }),
    );
  };

  const reply = (choice: ReplyChoice) => send({ type: choice.type, reply: { id: choice.id, title: choice.title } });

  // A flow counts as submitted once svc recorded its nfm_reply (from any browser) or this page sent it.
  const submittedTokens = new Set([
    ...submittedHere,
    ...recorded.messages.flatMap((message) =>
      message.direction === "inbound" && message.interactive && "flow_token" in message.interactive && message.interactive.flow_token
        ? [message.interactive.flow_token]
        : [],
    ),
  ]);
  const flows: FlowHandlers = { isSubmitted: (token) => submittedTokens.has(token), onOpen: setOpenFlow };

  /** The flow's completion, as a bubble of its own like every other customer message. */
  const submitFlow = async (flow: ReceivedFlowMessage, response: Record<string, unknown>) => {
    if (!channel || !identity) return;
    const localId = `local_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
    log.add({ localId, at: new Date().toISOString(), kind: "flow_completion", state: "sending", response });
    try {
      const result = await completeFlow.mutateAsync({
        channel_id: channel.id,
        from: identity.from,
        flowId: flow.flowId,
        flow_token: flow.flowToken,
        response,
        ...(identity.name ? { name: identity.name } : {}),
      });
      log.patch(localId, { state: "sent", webhookStatus: result.webhook_status, providerMessageId: result.provider_message_id });
      setSubmittedHere((current) => new Set([...current, flow.flowToken]));
      setOpenFlow(null);
    } catch (error) {
      log.patch(localId, { state: "failed", error: error instanceof Error ? error.message : "The simulator refused it." });
      throw error;
    }
  };
  const sendJoin = (code: string) => send({ type: "text", text: `join ${code}` });

  return {
    projectId,
    canWrite,
    roleLoading,
    project,
    channels,
    usable,
    channel,
    identity,
    updateIdentity,
    from,
    inbox,
    conversation,
    recorded,
    sendAsCustomer,
    sentBubbles,
    inboxHref,
    conversationHref,
    joined,
    otherProject,
    canSend,
    send,
    reply,
    flows,
    openFlow,
    setOpenFlow,
    submitFlow,
    sendJoin,
  };
}

export type SandboxPhoneState = ReturnType<typeof useSandboxPhone>;
