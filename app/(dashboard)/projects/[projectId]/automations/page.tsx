import type { Metadata } from "next";
import { AutomationsPage } from "@/components/automations/automations-page";

export const metadata: Metadata = { title: "Automations" };

export default async function Page({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  return <AutomationsPage projectId={projectId} />;
}
