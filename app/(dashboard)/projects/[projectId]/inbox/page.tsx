import type { Metadata } from "next";
import { Suspense } from "react";
import { InboxPage } from "@/components/inbox/inbox-page";

export const metadata: Metadata = { title: "Inbox" };

export default async function Page({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  return (
    // useSearchParams (the open conversation) needs a Suspense boundary.
    <Suspense>
      <InboxPage projectId={projectId} />
    </Suspense>
  );
}
