import type { Metadata } from "next";
import { Suspense } from "react";
import { WebhookLogsPage } from "@/components/webhooks/webhook-logs-page";

export const metadata: Metadata = { title: "Webhooks" };

export default async function Page({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  // The filters read the URL's query (useSearchParams), which needs a Suspense boundary.
  return (
    <Suspense>
      <WebhookLogsPage projectId={projectId} />
    </Suspense>
  );
}
