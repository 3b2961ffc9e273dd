"use client";

import Link from "next/link";
import { MenuIcon } from "@/components/ui/icons";
import { useCurrentProject } from "@/lib/client/me";
import { Wordmark } from "./wordmark";

/** Phones: the sidebar folds into this bar; the menu button opens it as a sheet. */
export function MobileTopBar({ menuOpen, onOpenMenu }: { menuOpen: boolean; onOpenMenu: () => void }) {
  const { project } = useCurrentProject();
  return (
    <header className="sticky top-0 z-20 flex h-14 items-center gap-2 border-b border-slate-200 bg-white/90 px-2 backdrop-blur supports-[backdrop-filter]:bg-white/75 lg:hidden">
      <button
        type="button"
        onClick={onOpenMenu}
        aria-label="Open navigation"
        aria-expanded={menuOpen}
        aria-haspopup="dialog"
        className="inline-flex size-10 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <MenuIcon size={20} />
      </button>
      <Link href="/" aria-label="svc home" className="rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600">
        <Wordmark />
      </Link>
      {project && (
        <>
          <span aria-hidden="true" className="text-slate-300">
            /
          </span>
          <span className="min-w-0 truncate text-sm font-medium text-slate-700">{project.name}</span>
        </>
      )}
    </header>
  );
}
