import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { DashboardShell } from "@/components/shell/dashboard-shell";
import { getSessionUser } from "@/lib/auth/server";

export const dynamic = "force-dynamic";

/** Every project page: signed-out visitors go to sign-in (and come back here after). */
export default async function ProjectLayout({ children, params }: { children: ReactNode; params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const user = await getSessionUser();
  if (!user) redirect(`/sign-in?callbackUrl=${encodeURIComponent(`/projects/${projectId}`)}`);
  return (
    <DashboardShell projectId={projectId} user={user}>
      {children}
    </DashboardShell>
  );
}
