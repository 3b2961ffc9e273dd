import type { Metadata } from "next";
import { EditAutomationPage } from "@/components/automations/builder/builder-page";

export const metadata: Metadata = { title: "Automation" };

export default async function Page({ params }: { params: Promise<{ projectId: string; automationId: string }> }) {
  const { projectId, automationId } = await params;
  return <EditAutomationPage projectId={projectId} automationId={decodeURIComponent(automationId)} />;
}
