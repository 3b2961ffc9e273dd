import type { Metadata } from "next";
import { SandboxPage } from "@/components/sandbox/sandbox-page";

export const metadata: Metadata = { title: "Sandbox phone" };

export default async function Page({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  return <SandboxPage projectId={projectId} />;
}
