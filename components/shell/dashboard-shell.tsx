"use client";

import { usePathname } from "next/navigation";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Sheet } from "@/components/ui/dialog";
import { CloseIcon } from "@/components/ui/icons";
import { useCurrentProject, useMe } from "@/lib/client/me";
import { MobileTopBar } from "./mobile-top-bar";
import { ProjectNotFound } from "./project-not-found";
import { SidebarContent } from "./sidebar";
import type { ShellUser } from "./user-menu";

/**
 * The frame around every project page: a fixed sidebar from 1024px up, a top bar + sheet below it.
 * Pages render at once (they show their own skeletons); the shell does not wait for /me.
 */
export function DashboardShell({ projectId, user, children }: { projectId: string; user: ShellUser; children: ReactNode }) {
  const pathname = usePathname();
  const [menuOpen, setMenuOpen] = useState(false);
  const me = useMe();
  const { me: loaded, project } = useCurrentProject();
  const missing = Boolean(loaded) && !project;
  // `me` is cached for a minute: before calling a project unknown, ask once more (it may be brand new).
  const [checkedMissing, setCheckedMissing] = useState<string | null>(null);

  useEffect(() => setMenuOpen(false), [pathname]);

  // The sheet is hidden from 1024px up; a modal nobody can see would leave the page inert.
  useEffect(() => {
    const wide = window.matchMedia("(min-width: 1024px)");
    const onChange = () => wide.matches && setMenuOpen(false);
    wide.addEventListener("change", onChange);
    return () => wide.removeEventListener("change", onChange);
  }, []);

  const asked = useRef<string | null>(null);
  const { refetch } = me;

  useEffect(() => {
    if (!missing || asked.current === projectId) return;
    asked.current = projectId;
    void refetch().finally(() => setCheckedMissing(projectId));
  }, [missing, projectId, refetch]);

  const notFound = missing && checkedMissing === projectId && !me.isFetching;

  return (
    <div className="min-h-dvh lg:pl-64">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-white px-3 py-2 text-sm font-medium text-indigo-700 shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:outline-2 focus:outline-indigo-600"
      >
        Skip to content
      </a>

      <aside aria-label="Sidebar" className="fixed inset-y-0 left-0 z-20 hidden w-64 border-r border-slate-200 bg-white lg:block">
        <SidebarContent projectId={projectId} user={user} />
      </aside>

      <MobileTopBar menuOpen={menuOpen} onOpenMenu={() => setMenuOpen(true)} />
      <Sheet open={menuOpen} onClose={() => setMenuOpen(false)} label="Navigation" className="lg:hidden">
        <SidebarContent
          projectId={projectId}
          user={user}
          onNavigate={() => setMenuOpen(false)}
          headerAction={
            <button
              type="button"
              onClick={() => setMenuOpen(false)}
              aria-label="Close navigation"
              className="-mr-1.5 inline-flex size-9 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              <CloseIcon size={18} />
            </button>
          }
        />
      </Sheet>

      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl px-4 py-6 focus:outline-none sm:px-6 lg:px-10 lg:py-9">
        {notFound && me.data ? <ProjectNotFound me={me.data} /> : children}
      </main>
    </div>
  );
}
