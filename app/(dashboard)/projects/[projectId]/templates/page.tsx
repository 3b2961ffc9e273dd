import type { Metadata } from "next";
import { TemplatesPage } from "@/components/templates/templates-page";

export const metadata: Metadata = { title: "Templates" };

export default async function Page({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  return <TemplatesPage projectId={projectId} />;
}
