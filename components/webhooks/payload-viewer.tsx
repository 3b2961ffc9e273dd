"use client";

import { useId, useState } from "react";
import { Button, Card, CardHeader, CopyButton, cn } from "@/components/ui";
import type { WebhookDeliveryDetail } from "@/lib/client/webhooks";
import { JsonTree } from "./json-tree";

/** The event a delivery carries, as folding JSON, with copy and a show-all / fold toggle. */
export function PayloadViewer({ event }: { event: WebhookDeliveryDetail["event"] }) {
  const [expanded, setExpanded] = useState(true);
  // Remounting the tree applies the new default to every fold at once.
  const [version, setVersion] = useState(0);
  const regionId = useId();
  const json = JSON.stringify(event.payload, null, 2);

  return (
    <Card>
      <CardHeader
        title="Event payload"
        description={
          <>
            Sent as <code className="font-mono text-[12px] text-slate-700">payload</code> in the body{" "}
            <code className="font-mono text-[12px] text-slate-700">{"{event, payload, sentAt}"}</code>, with{" "}
            <code className="font-mono text-[12px] text-slate-700">event</code> = {event.type}.
          </>
        }
        actions={
          <>
            <Button
              size="sm"
              variant="ghost"
              aria-controls={regionId}
              onClick={() => {
                setExpanded((e) => !e);
                setVersion((v) => v + 1);
              }}
            >
              {expanded ? "Fold nested" : "Expand all"}
            </Button>
            <CopyButton value={json} label="payload JSON" display="text" variant="secondary" />
          </>
        }
      />
      <div
        id={regionId}
        role="region"
        aria-label="Event payload JSON"
        tabIndex={0}
        className={cn(
          "max-h-[32rem] overflow-auto bg-slate-50/60 px-4 py-3 sm:px-5",
          "focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600",
        )}
      >
        <JsonTree key={version} value={event.payload} defaultOpen={expanded} />
      </div>
    </Card>
  );
}
