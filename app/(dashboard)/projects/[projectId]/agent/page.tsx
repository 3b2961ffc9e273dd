import type { Metadata } from "next";
import { AgentPage } from "@/components/agent/agent-page";

export const metadata: Metadata = { title: "Agent" };

export default async function Page({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  return <AgentPage projectId={projectId} />;
}
