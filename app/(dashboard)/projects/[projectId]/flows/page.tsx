import type { Metadata } from "next";
import { FlowsPage } from "@/components/flows/flows-page";

export const metadata: Metadata = { title: "Flows" };

export default async function Page({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  return <FlowsPage projectId={projectId} />;
}
