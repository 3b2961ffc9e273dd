import type { Metadata } from "next";
import { RunPage } from "@/components/automations/runs/run-page";

export const metadata: Metadata = { title: "Automation run" };

export default async function Page({ params }: { params: Promise<{ projectId: string; runId: string }> }) {
  const { projectId, runId } = await params;
  return <RunPage projectId={projectId} runId={decodeURIComponent(runId)} />;
}
