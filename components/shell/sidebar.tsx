"use client";

import Link from "next/link";
import type { MouseEvent, ReactNode } from "react";
import { ExternalLinkIcon } from "@/components/ui/icons";
import { NavLinks } from "./nav-links";
import { ProjectSwitcher } from "./project-switcher";
import { UserMenu, type ShellUser } from "./user-menu";
import { Wordmark } from "./wordmark";

/**
 * What the sidebar holds, used twice: the fixed column on laptops and the slide-in sheet on phones.
 * `onNavigate` lets the sheet close when a link is followed (even the link of the current page).
 */
export function SidebarContent({
  projectId,
  user,
  onNavigate,
  headerAction,
}: {
  projectId: string;
  user: ShellUser;
  onNavigate?: () => void;
  headerAction?: ReactNode;
}) {
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    if (onNavigate && (event.target as HTMLElement).closest("a[href]")) onNavigate();
  };
  return (
    <div className="flex h-full flex-col gap-5 px-3 pt-4 pb-3">
      <div className="flex h-8 items-center justify-between px-1.5">
        <Link href="/" aria-label="svc home" className="rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600">
          <Wordmark />
        </Link>
        {headerAction}
      </div>
      <ProjectSwitcher />
      <div onClick={onClick} className="min-h-0 flex-1 overflow-y-auto">
        <NavLinks projectId={projectId} />
      </div>
      <div className="space-y-2 border-t border-slate-100 pt-3">
        <a
          href="/docs/api"
          target="_blank"
          rel="noreferrer"
          className="flex h-8 items-center gap-2.5 rounded-md px-2.5 text-[13px] text-slate-500 hover:bg-slate-100/70 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-indigo-600"
        >
          <ExternalLinkIcon className="text-slate-400" />
          API reference
          <span className="sr-only">(opens in a new tab)</span>
        </a>
        <UserMenu user={user} />
      </div>
    </div>
  );
}
