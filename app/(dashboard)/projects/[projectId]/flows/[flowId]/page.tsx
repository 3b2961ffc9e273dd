import type { Metadata } from "next";
import { FlowEditorPage } from "@/components/flows/editor/flow-editor-page";

export const metadata: Metadata = { title: "Flow" };

export default async function Page({ params }: { params: Promise<{ projectId: string; flowId: string }> }) {
  const { projectId, flowId } = await params;
  return <FlowEditorPage projectId={projectId} flowId={decodeURIComponent(flowId)} />;
}
