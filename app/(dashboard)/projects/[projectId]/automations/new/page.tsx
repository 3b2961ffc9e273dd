import type { Metadata } from "next";
import { NewAutomationPage } from "@/components/automations/builder/builder-page";

export const metadata: Metadata = { title: "New automation" };

export default async function Page({ params, searchParams }: { params: Promise<{ projectId: string }>; searchParams: Promise<{ from?: string | string[] }> }) {
  const { projectId } = await params;
  const { from } = await searchParams;
  return <NewAutomationPage projectId={projectId} fromId={typeof from === "string" && from ? from : null} />;
}
