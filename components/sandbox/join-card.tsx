"use client";

import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import type { Channel } from "@/lib/client/channels";
import type { SandboxProject } from "@/lib/client/sandbox";

export interface JoinCardProps {
  project: SandboxProject | undefined;
  projectError: unknown;
  onRetry: () => void;
  channel: Channel | null;
  joined: boolean | null;
  conversationHref: string | null;
  canSend: boolean;
  sending: boolean;
  onSendJoin: (code: string) => void;
}

/**
 * The project's join code and the one-click way to join with the phone's number. On a dedicated
 * channel there is nothing to join: the card says so and shows no code (issue 32 item 13).
 */
export function JoinCard(props: JoinCardProps) {
  if (props.channel && !props.channel.is_sandbox) return <OwnChannelCard channel={props.channel} conversationHref={props.conversationHref} />;
  return <SandboxJoinCard {...props} />;
}

function OwnChannelCard({ channel, conversationHref }: { channel: Channel; conversationHref: string | null }) {
  return (
    <Card>
      <CardHeader title="Your own channel" description="Customers write to this channel directly: there is no join code to send, just write." />
      <CardBody>
        <p className="text-[13px] leading-5 text-slate-600">
          {channel.phone_number ? (
            <>
              The phone writes to <span className="font-mono font-medium text-slate-900">{channel.phone_number}</span> as a customer would.
            </>
          ) : (
            "The phone writes to this channel as a customer would."
          )}{" "}
          To try the shared sandbox instead (where testers join with a code), pick it under Channel.{" "}
          {conversationHref && (
            <Link href={conversationHref} className="font-medium text-indigo-700 underline-offset-2 hover:underline">
              Open the conversation in the inbox
            </Link>
          )}
        </p>
      </CardBody>
    </Card>
  );
}

function SandboxJoinCard({ project, projectError, onRetry, joined, conversationHref, canSend, sending, onSendJoin }: JoinCardProps) {
  return (
    <Card>
      <CardHeader
        title="Join your project"
        description="The sandbox number is shared by every project: a tester talks to yours after sending its join code."
        actions={
          joined === null ? undefined : joined ? (
            <Badge tone="success" dot>
              Joined
            </Badge>
          ) : (
            <Badge tone="warning" dot>
              Not joined
            </Badge>
          )
        }
      />
      <CardBody className="space-y-4">
        {projectError && !project ? (
          <ErrorState compact error={projectError} title="Couldn't load the join code" onRetry={onRetry} />
        ) : !project ? (
          <Skeleton className="h-10 w-full" />
        ) : (
          <>
            <div className="flex items-center justify-between gap-3 rounded-md bg-slate-50 px-3 py-2 ring-1 ring-slate-200">
              <div>
                <p className="text-xs text-slate-500">Send this message</p>
                <p className="font-mono text-sm font-semibold text-slate-900" data-testid="join-message">
                  join {project.join_code}
                </p>
              </div>
              <CopyButton value={`join ${project.join_code}`} label="join message" />
            </div>
            <Button
              variant={joined ? "secondary" : "primary"}
              className="w-full"
              loading={sending}
              disabled={!canSend}
              onClick={() => onSendJoin(project.join_code)}
            >
              {joined ? "Send join code again" : "Send join code"}
            </Button>
            <p className="text-xs leading-5 text-slate-500">
              Joining records an opt-in and fires participant.joined. A project takes up to 5 testers; one number belongs to one project at a time.{" "}
              {conversationHref && (
                <Link href={conversationHref} className="font-medium text-indigo-700 underline-offset-2 hover:underline">
                  Open the conversation in the inbox
                </Link>
              )}
            </p>
          </>
        )}
      </CardBody>
    </Card>
  );
}

/** How to do the same from a real phone, when svc talks to the real provider. */
export function RealPhoneCard({ channel, joinCode }: { channel: Channel | null; joinCode: string | null }) {
  const number = channel?.phone_number;
  const own = Boolean(channel && !channel.is_sandbox);
  return (
    <Card>
      <CardHeader title="Use a real phone" />
      <CardBody>
        <ol className="list-decimal space-y-1.5 pl-5 text-[13px] leading-5 text-slate-600">
          <li>
            Save {number ? <span className="font-mono font-medium text-slate-900">{number}</span> : own ? "your number" : "the sandbox number"} in your
            phone&apos;s contacts.
          </li>
          {!own && (
            <li>
              Open the messaging app and send <span className="font-mono font-medium text-slate-900">join {joinCode ?? "<code>"}</span> to it.
            </li>
          )}
          <li>Write anything: it appears in the Inbox and goes to your webhook as message.received.</li>
        </ol>
        <p className="mt-3 text-xs leading-5 text-slate-500">
          This works when svc is connected to the real provider. While the built-in simulator stands in for it (as on this installation), use the phone on this
          page instead.
        </p>
      </CardBody>
    </Card>
  );
}
