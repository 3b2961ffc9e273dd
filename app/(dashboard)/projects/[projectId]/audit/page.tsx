import type { Metadata } from "next";
import { Suspense } from "react";
import { AuditLogPage } from "@/components/audit/audit-log-page";

export const metadata: Metadata = { title: "Audit log" };

export default async function Page({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  // The filters read the URL's query (useSearchParams), which needs a Suspense boundary.
  return (
    <Suspense>
      <AuditLogPage projectId={projectId} />
    </Suspense>
  );
}
