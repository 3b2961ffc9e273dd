"use client";

import { projectPath } from "@/components/shell/nav-links";
import {
  Badge,
  ButtonLink,
  Card,
  CardBody,
  CardHeader,
  CodeBlock,
  EmptyState,
  ErrorState,
  Secret,
  Skeleton,
  SkeletonGroup,
  WebhookIcon,
  WithheldSecret,
} from "@/components/ui";
import { can, useCurrentProject } from "@/lib/client/me";
import { useProjectSettings } from "@/lib/client/webhooks";

/**
 * Where deliveries go: the project's webhook_url (changed on Overview), or a note that there is none,
 * and the signing secret they are signed with. A viewer gets neither the change links nor the secret
 * (the server withholds it from them; docs/api-decisions.md "Dashboard", the signing secret): it shows masked.
 */
export function WebhookEndpointCard({ projectId }: { projectId: string }) {
  const project = useProjectSettings(projectId);
  const overview = projectPath(projectId);
  const canWrite = can(useCurrentProject().role, "write");

  if (project.isPending) {
    return (
      <Card>
        <CardBody>
          <SkeletonGroup label="Loading the webhook endpoint">
            <Skeleton className="h-4 w-32" />
            <Skeleton className="mt-3 h-9 w-full" />
          </SkeletonGroup>
        </CardBody>
      </Card>
    );
  }
  if (project.isError) {
    return (
      <Card>
        <ErrorState compact error={project.error} onRetry={() => void project.refetch()} retrying={project.isFetching} />
      </Card>
    );
  }

  const { webhook_url: url, webhook_signing_enabled: signed, webhook_secret: secret, routing_mode: routing } = project.data;
  if (!url) {
    return (
      <Card>
        <EmptyState
          compact
          icon={<WebhookIcon />}
          title="No webhook URL set"
          description={
            canWrite
              ? "Events are recorded, but nothing is delivered until this project has a webhook URL. Set one on the Overview page."
              : "Events are recorded, but nothing is delivered until this project has a webhook URL. A developer, admin or owner can set one."
          }
          action={
            canWrite ? (
              <ButtonLink href={overview} variant="primary">
                Set a webhook URL
              </ButtonLink>
            ) : undefined
          }
        />
      </Card>
    );
  }

  return (
    <Card>
      <CardHeader
        title="Webhook endpoint"
        description={
          routing === "EXTERNAL"
            ? "Every event is POSTed here, inbound messages included."
            : `Events are POSTed here; inbound messages are not, because the project routes ${routing}.`
        }
        actions={
          canWrite ? (
            <ButtonLink href={overview} size="sm">
              Change on Overview
            </ButtonLink>
          ) : undefined
        }
      />
      <CardBody className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <CodeBlock value={url} label="webhook URL" className="min-w-0 flex-1" />
        <div className="flex flex-wrap items-center gap-2">
          {signed ? <Badge tone="success">Signed</Badge> : <Badge tone="warning">Not signed</Badge>}
          <Badge tone="neutral">Routing {routing}</Badge>
        </div>
      </CardBody>
      {signed && (
        <CardBody className="flex flex-col gap-1.5 border-t border-slate-100 sm:flex-row sm:items-center sm:gap-3">
          <span className="shrink-0 text-[13px] font-medium text-slate-800">Signing secret</span>
          {canWrite && secret ? (
            <Secret value={secret} label="signing secret" className="min-w-0 flex-1" />
          ) : (
            <WithheldSecret label="signing secret" prefix="whsec_" className="min-w-0 flex-1" />
          )}
        </CardBody>
      )}
    </Card>
  );
}
