"use client";

import { ButtonLink } from "@/components/ui/button";
import { ErrorState } from "@/components/ui/error-state";
import { InboxIcon } from "@/components/ui/icons";
import { PageHeader } from "@/components/ui/page-header";
import { CustomerCard } from "./customer-card";
import { JoinCard, RealPhoneCard } from "./join-card";
import { SandboxPhone } from "./sandbox-phone";
import { useSandboxPhone } from "./use-sandbox-phone";

/**
 * The sandbox phone: the operator plays a customer of one of the project's channels. Messages go
 * through the built-in provider simulator, which signs and posts a real inbound webhook to svc, so
 * everything downstream (inbox, webhooks, automations) sees a genuine customer message.
 */
export function SandboxPage({ projectId }: { projectId: string }) {
  const phone = useSandboxPhone(projectId);
  const { project, channels, channel, conversationHref, inboxHref } = phone;

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
          <SandboxPhone phone={phone} />
          <div className="space-y-6">
            <CustomerCard identity={phone.identity} channels={phone.usable} channel={channel} onChange={phone.updateIdentity} />
            <JoinCard
              project={project.data}
              projectError={project.error}
              onRetry={() => void project.refetch()}
              channel={channel}
              joined={phone.joined}
              conversationHref={conversationHref}
              canSend={phone.canSend}
              sending={phone.sendAsCustomer.isPending && phone.sendAsCustomer.variables?.text?.startsWith("join ") === true}
              onSendJoin={phone.sendJoin}
            />
            <RealPhoneCard channel={channel} joinCode={project.data?.join_code ?? null} />
          </div>
        </div>
      )}
    </>
  );
}
