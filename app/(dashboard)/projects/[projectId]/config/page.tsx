import type { Metadata } from "next";
import { ConfigPage } from "@/components/config/config-page";

export const metadata: Metadata = { title: "Config" };

export default async function Page({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  return <ConfigPage projectId={projectId} />;
}
