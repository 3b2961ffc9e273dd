"use client";

import { projectPath } from "@/components/shell/nav-links";
import { Badge, ButtonLink, Card, CardBody, CardHeader, CodeBlock, EmptyState, ErrorState, Skeleton, SkeletonGroup, WebhookIcon } from "@/components/ui";
import { useProjectSettings } from "@/lib/client/webhooks";

/** Where deliveries go: the project's webhook_url (changed on Overview), or a note that there is none. */
export function WebhookEndpointCard({ projectId }: { projectId: string }) {
  const project = useProjectSettings(projectId);
  const overview = projectPath(projectId);

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

  const { webhook_url: url, webhook_signing_enabled: signed, routing_mode: routing } = project.data;
  if (!url) {
    return (
      <Card>
        <EmptyState
          compact
          icon={<WebhookIcon />}
          title="No webhook URL set"
          description="Events are recorded, but nothing is delivered until this project has a webhook URL. Set one on the Overview page."
          action={
            <ButtonLink href={overview} variant="primary">
              Set a webhook URL
            </ButtonLink>
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
          <ButtonLink href={overview} size="sm">
            Change on Overview
          </ButtonLink>
        }
      />
      <CardBody className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <CodeBlock value={url} label="webhook URL" className="min-w-0 flex-1" />
        <div className="flex flex-wrap items-center gap-2">
          {signed ? <Badge tone="success">Signed</Badge> : <Badge tone="warning">Not signed</Badge>}
          <Badge tone="neutral">Routing {routing}</Badge>
        </div>
      </CardBody>
    </Card>
  );
}
