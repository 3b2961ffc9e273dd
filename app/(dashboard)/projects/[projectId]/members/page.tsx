import type { Metadata } from "next";
import { MembersPage } from "@/components/members/members-page";

export const metadata: Metadata = { title: "Members" };

export default async function ProjectMembersPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  return <MembersPage projectId={projectId} />;
}
