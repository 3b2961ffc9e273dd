import type { Metadata } from "next";
import { BroadcastsPage } from "@/components/broadcasts/broadcasts-page";

export const metadata: Metadata = { title: "Broadcasts" };

export default async function Page({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  return <BroadcastsPage projectId={projectId} />;
}
