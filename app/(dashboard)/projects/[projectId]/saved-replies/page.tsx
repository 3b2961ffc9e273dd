import type { Metadata } from "next";
import { SavedRepliesPage } from "@/components/saved-replies/saved-replies-page";

export const metadata: Metadata = { title: "Saved replies" };

export default async function Page({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  return <SavedRepliesPage projectId={projectId} />;
}
