import type { Metadata } from "next";
import { FunctionEditorPage } from "@/components/functions/editor/function-editor-page";

export const metadata: Metadata = { title: "Function" };

export default async function Page({ params }: { params: Promise<{ projectId: string; functionId: string }> }) {
  const { projectId, functionId } = await params;
  return <FunctionEditorPage projectId={projectId} functionId={decodeURIComponent(functionId)} />;
}
