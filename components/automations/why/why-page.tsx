"use client";

import Link from "next/link";
import { Card, CardBody, PageHeader, Time } from "@/components/ui";
import { projectPath } from "@/components/shell/nav-links";
import { useMessage } from "@/lib/client/automations-runs";
import { messageText } from "../test/test-panel";
import { WhyPanel } from "./why-view";

/**
 * /automations/messages/[messageId]: why this inbound message did (or did not) start an automation,
 * as the evaluation recorded it when the message came (GET /messages/{id}/automations).
 */
export function WhyPage({ projectId, messageId }: { projectId: string; messageId: string }) {
  const message = useMessage(projectId, messageId);
  const conversationHref = message.data?.conversation_id ? `${projectPath(projectId, "inbox")}?c=${encodeURIComponent(message.data.conversation_id)}` : null;
  return (
    <div>
      <PageHeader
        title="Why did it (not) fire?"
        back={{ href: projectPath(projectId, "automations"), label: "Automations" }}
        description="Each automation in priority order, as svc judged this message when it came: whether it matched, and why not."
        meta={
          message.data ? (
            <p className="text-[13px] text-slate-600">
              Message “<span className="text-slate-900">{messageText(message.data)}</span>”, <Time value={message.data.timestamp} />
              {conversationHref && (
                <>
                  {" · "}
                  <Link
                    href={conversationHref}
                    className="font-medium text-indigo-600 hover:text-indigo-500 focus-visible:outline-2 focus-visible:outline-indigo-600"
                  >
                    Open conversation
                  </Link>
                </>
              )}
            </p>
          ) : null
        }
      />
      <Card aria-label="Evaluation">
        <CardBody>
          <WhyPanel projectId={projectId} messageId={messageId} />
        </CardBody>
      </Card>
    </div>
  );
}
