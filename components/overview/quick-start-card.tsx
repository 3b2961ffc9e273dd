"use client";

import Link from "next/link";
import { Card, CardBody, CardHeader, CodeBlock } from "@/components/ui";
import { useOrigin } from "@/components/ui/use-origin";
import { projectHref } from "./links";

export function QuickStartCard({ projectId, channelId }: { projectId: string; channelId: string }) {
  const origin = useOrigin();
  const curl = [
    `curl ${origin}/v1/messages \\`,
    `  -H "Authorization: Bearer svc_live_YOUR_KEY" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '{`,
    `    "channel_id": "${channelId}",`,
    `    "conversation_id": "conv_FROM_A_TESTER",`,
    `    "text": "Hello from svc"`,
    `  }'`,
  ].join("\n");
  return (
    <Card aria-labelledby="quick-start-heading">
      <CardHeader title={<span id="quick-start-heading">Quick start</span>} description="Send your first message with the API." />
      <CardBody className="space-y-3">
        <CodeBlock value={curl} label="curl command" multiline />
        <p className="text-xs leading-5 text-slate-500">
          Use a secret key from{" "}
          <Link href={projectHref(projectId, "keys")} className="font-medium text-indigo-600 hover:text-indigo-500">
            API keys
          </Link>
          . On the sandbox you reply in a conversation a tester started (GET /v1/conversations lists them); with your own number you can send{" "}
          <code className="font-mono text-slate-700">to</code> a phone number instead.
        </p>
      </CardBody>
    </Card>
  );
}
