import type { Metadata } from "next";
import { BroadcastDetailPage } from "@/components/broadcasts/broadcast-detail-page";

export const metadata: Metadata = { title: "Broadcast" };

export default async function Page({ params }: { params: Promise<{ projectId: string; broadcastId: string }> }) {
  const { projectId, broadcastId } = await params;
  return <BroadcastDetailPage projectId={projectId} broadcastId={decodeURIComponent(broadcastId)} />;
}
