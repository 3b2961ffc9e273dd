import type { Metadata } from "next";
import { TemplateBuilderPage } from "@/components/templates/builder/template-builder-page";

export const metadata: Metadata = { title: "New template" };

export default async function Page({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  return <TemplateBuilderPage projectId={projectId} />;
}
