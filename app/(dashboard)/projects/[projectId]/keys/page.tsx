import type { Metadata } from "next";
import { KeysPage } from "@/components/keys/keys-page";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  return <KeysPage projectId={projectId} />;
}
