"use client";

import { useState } from "react";
import { Button, ButtonLink } from "@/components/ui/button";
import { ErrorState } from "@/components/ui/error-state";
import { InboxIcon } from "@/components/ui/icons";
import { PageHeader } from "@/components/ui/page-header";
import { isApiError } from "@/lib/client/api";
import type { Channel } from "@/lib/client/channels";
import { useChannels, useConversationMessages } from "@/lib/client/inbox";
import { can, useCurrentProject } from "@/lib/client/me";
import { useCompleteFlow, useConversationForNumber, useCustomerInbox, useSandboxProject, useSandboxTesters, useSendAsCustomer } from "@/lib/client/sandbox";
import type { FlowHandlers, ReplyChoice } from "./business-actions";
import { CustomerCard } from "./customer-card";
import { randomCustomerNumber, useCustomerIdentity, useSentLog, type SentItem, type SentKind } from "./customer-store";
import type { ReceivedFlowMessage } from "./received-flow";
import { FlowSheet } from "./flow-sheet";
import { inboundAsSent } from "./inbound-as-sent";
import { JoinCard, RealPhoneCard } from "./join-card";
import { Phone, PhoneAlert } from "./phone";
import type { PhoneAction } from "./phone-composer";

// The simulator can act as a customer on these platforms only.
const CUSTOMER_PLATFORMS = new Set(["PLATFORM_A", "PLATFORM_B", "PLATFORM_C"]);

/**
 * The sandbox phone: the operator plays a customer of one of the project's channels. Messages go
 * through the built-in provider simulator, which signs and posts a real inbound webhook to svc, so
 * everything downstream (inbox, webhooks, automations) sees a genuine customer message.
 */
export function SandboxPage({ projectId }: { projectId: string }) {
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

  let alert = null;
  if (!roleLoading && !canWrite) {
    alert = <PhoneAlert tone="warning">You can watch this chat, but sending as a customer needs the Developer role or higher.</PhoneAlert>;
  } else if (otherProject) {
    alert = (
      <PhoneAlert tone="danger">
        <p>{otherProject.message}</p>
        <Button size="sm" className="mt-1.5" onClick={() => updateIdentity({ from: randomCustomerNumber() })}>
          Use a new number
        </Button>
      </PhoneAlert>
    );
  } else if (joined === false && project.data) {
    alert = (
      <PhoneAlert tone="warning">
        <p>This number hasn&apos;t joined {project.data.name} yet, so svc ignores its messages.</p>
        <Button size="sm" className="mt-1.5" disabled={!canSend} onClick={() => sendJoin(project.data.join_code)}>
          Send join code
        </Button>
      </PhoneAlert>
    );
  } else if (inbox.error && !otherProject) {
    alert = <PhoneAlert tone="danger">Couldn&apos;t load what the business sent: {inbox.error.message}</PhoneAlert>;
  }

  return (
    <>
      <PageHeader
        title="Sandbox phone"
        description="Be your own customer: write to your project from a simulated phone, tap the buttons your business sends, and watch it all land in the Inbox."
        actions={
          <ButtonLink href={conversationHref ?? inboxHref} icon={<InboxIcon />}>
            {conversationHref ? "Open in inbox" : "Inbox"}
          </ButtonLink>
        }
      />
      {channels.error && !channels.data ? (
        <ErrorState error={channels.error} title="Couldn't load your channels" onRetry={() => void channels.refetch()} retrying={channels.isFetching} />
      ) : (
        <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,23rem)_minmax(0,1fr)] xl:gap-10">
          <Phone
            channel={channel}
            from={from}
            businessMessages={inbox.data}
            sent={sentBubbles}
            loading={!identity || channels.isPending || (inbox.isPending && inbox.fetchStatus !== "idle")}
            alert={alert}
            conversationHref={conversationHref}
            canSend={canSend}
            onSend={send}
            onReply={reply}
            flows={flows}
            overlay={
              openFlow && channel && identity ? (
                <FlowSheet
                  key={openFlow.messageId}
                  projectId={projectId}
                  channelId={channel.id}
                  from={identity.from}
                  message={openFlow}
                  onClose={() => setOpenFlow(null)}
                  onComplete={(response) => submitFlow(openFlow, response)}
                />
              ) : null
            }
            emptyHint={
              channel?.is_sandbox && joined !== true
                ? "Start by sending your join code, then say hello. Replies from your business appear here."
                : "Say hello. Replies from your business (API sends or inbox replies) appear here."
            }
          />
          <div className="space-y-6">
            <CustomerCard identity={identity} channels={usable} channel={channel} onChange={updateIdentity} />
            <JoinCard
              project={project.data}
              projectError={project.error}
              onRetry={() => void project.refetch()}
              channel={channel}
              joined={joined}
              conversationHref={conversationHref}
              canSend={canSend}
              sending={sendAsCustomer.isPending && sendAsCustomer.variables?.text?.startsWith("join ") === true}
              onSendJoin={sendJoin}
            />
            <RealPhoneCard channel={channel} joinCode={project.data?.join_code ?? null} />
          </div>
        </div>
      )}
    </>
  );
}
