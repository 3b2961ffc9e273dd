import type { Metadata } from "next";
import { WhyPage } from "@/components/automations/why/why-page";

export const metadata: Metadata = { title: "Why did it (not) fire?" };

export default async function Page({ params }: { params: Promise<{ projectId: string; messageId: string }> }) {
  const { projectId, messageId } = await params;
  return <WhyPage projectId={projectId} messageId={decodeURIComponent(messageId)} />;
}
