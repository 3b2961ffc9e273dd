"use client";

import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { randomCustomerNumber } from "./customer-store";
import { FlowSheet } from "./flow-sheet";
import { Phone, PhoneAlert } from "./phone";
import type { SandboxPhoneState } from "./use-sandbox-phone";

/** What the customer should know before writing: the role, another project's number, not joined yet. */
function phoneAlert(phone: SandboxPhoneState): ReactNode {
  const { canWrite, roleLoading, otherProject, joined, project, canSend, inbox } = phone;
  if (!roleLoading && !canWrite) {
    return <PhoneAlert tone="warning">You can watch this chat, but sending as a customer needs the Developer role or higher.</PhoneAlert>;
  }
  if (otherProject) {
    return (
      <PhoneAlert tone="danger">
        <p>{otherProject.message}</p>
        <Button size="sm" className="mt-1.5" onClick={() => phone.updateIdentity({ from: randomCustomerNumber() })}>
          Use a new number
        </Button>
      </PhoneAlert>
    );
  }
  if (joined === false && project.data) {
    return (
      <PhoneAlert tone="warning">
        <p>This number hasn&apos;t joined {project.data.name} yet, so svc ignores its messages.</p>
        <Button size="sm" className="mt-1.5" disabled={!canSend} onClick={() => phone.sendJoin(project.data.join_code)}>
          Send join code
        </Button>
      </PhoneAlert>
    );
  }
  if (inbox.error) return <PhoneAlert tone="danger">Couldn&apos;t load what the business sent: {inbox.error.message}</PhoneAlert>;
  return null;
}

/** The sandbox phone itself, with its alerts and an opened Flow's sheet: the Sandbox page's, and the automation builder's test phone. */
export function SandboxPhone({ phone }: { phone: SandboxPhoneState }) {
  const { channel, identity, openFlow } = phone;
  return (
    <Phone
      channel={channel}
      from={phone.from}
      businessMessages={phone.inbox.data}
      sent={phone.sentBubbles}
      loading={!identity || phone.channels.isPending || (phone.inbox.isPending && phone.inbox.fetchStatus !== "idle")}
      alert={phoneAlert(phone)}
      conversationHref={phone.conversationHref}
      canSend={phone.canSend}
      onSend={phone.send}
      onReply={phone.reply}
      flows={phone.flows}
      overlay={
        openFlow && channel && identity ? (
          <FlowSheet
            key={openFlow.messageId}
            projectId={phone.projectId}
            channelId={channel.id}
            from={identity.from}
            message={openFlow}
            onClose={() => phone.setOpenFlow(null)}
            onComplete={(response) => phone.submitFlow(openFlow, response)}
          />
        ) : null
      }
      emptyHint={
        channel?.is_sandbox && phone.joined !== true
          ? "Start by sending your join code, then say hello. Replies from your business appear here."
          : "Say hello. Replies from your business (API sends or inbox replies) appear here."
      }
    />
  );
}
