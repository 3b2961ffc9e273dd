"use client";

import { useRouter } from "next/navigation";
import { useId } from "react";
import { Button, RefreshIcon, useToast } from "@/components/ui";
import { can, useCurrentProject } from "@/lib/client/me";
import { useRedeliver, type WebhookDeliveryDetail } from "@/lib/client/webhooks";
import { deliveryPath } from "./deliveries-table";

/**
 * Sends the delivery's event again as a new delivery (same event id) and opens it, so the operator
 * watches its attempt land. Roles that cannot write see the button disabled, with why.
 */
export function RedeliverButton({
  projectId,
  delivery,
  webhookUrl,
}: {
  projectId: string;
  delivery: WebhookDeliveryDetail;
  webhookUrl: string | null | undefined;
}) {
  const { role } = useCurrentProject();
  const redeliver = useRedeliver(projectId);
  const toast = useToast();
  const router = useRouter();
  const reasonId = useId();

  const allowed = can(role, "write");
  const reason = !role
    ? null
    : !allowed
      ? "Viewers can't redeliver events. Ask a developer or an admin."
      : webhookUrl === null
        ? "Set a webhook URL on the Overview page first."
        : null;

  const onClick = () =>
    redeliver.mutate(delivery.id, {
      onSuccess: (created) => {
        toast.show({
          tone: "success",
          title: "Redelivery queued",
          description: `A new delivery of ${delivery.event_type} is on its way${webhookUrl ? ` to ${webhookUrl}` : ""}.`,
        });
        router.push(deliveryPath(projectId, created.id));
      },
      onError: (error) => toast.show({ tone: "danger", title: "Couldn't redeliver", description: error.message }),
    });

  return (
    <div className="flex flex-col items-start gap-1 sm:items-end">
      <Button
        variant="primary"
        icon={<RefreshIcon />}
        onClick={onClick}
        loading={redeliver.isPending}
        disabled={!allowed || webhookUrl === null}
        aria-describedby={reason ? reasonId : undefined}
      >
        Redeliver
      </Button>
      {reason && (
        <p id={reasonId} className="max-w-64 text-xs text-slate-500 sm:text-right">
          {reason}
        </p>
      )}
    </div>
  );
}
