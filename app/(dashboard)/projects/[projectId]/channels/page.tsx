import type { Metadata } from "next";
import { ChannelsPage } from "@/components/channels/channels-page";

export const metadata: Metadata = { title: "Channels" };

export default async function Page({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  return <ChannelsPage projectId={projectId} />;
}
