import type { Metadata } from "next";
import { FunctionsPage } from "@/components/functions/functions-page";

export const metadata: Metadata = { title: "Functions" };

export default async function Page({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  return <FunctionsPage projectId={projectId} />;
}
