"use client";

import { signOut } from "next-auth/react";
import { useCallback, useId, useRef, useState } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { ChevronUpDownIcon, SignOutIcon } from "@/components/ui/icons";
import { Spinner } from "@/components/ui/spinner";
import { ROLE_LABELS, useCurrentProject, type Role } from "@/lib/client/me";
import { useDismiss } from "./use-dismiss";

export interface ShellUser {
  id: string;
  email: string;
  name: string | null;
}

const ROLE_TONES: Record<Role, BadgeTone> = { owner: "accent", admin: "info", developer: "success", viewer: "neutral" };

function initials(user: ShellUser): string {
  const source = user.name?.trim() || user.email;
  const parts = source.split(/[\s@._-]+/).filter(Boolean);
  return ((parts[0]?.[0] ?? "?") + (user.name && parts[1] ? parts[1][0] : "")).toUpperCase();
}

function RoleBadge({ role }: { role: Role }) {
  return <Badge tone={ROLE_TONES[role]}>{ROLE_LABELS[role]}</Badge>;
}

/**
 * Who is signed in, their role in this project's organization, and Sign out. A disclosure (button +
 * panel) rather than an ARIA menu: it holds information as well as one action.
 */
export function UserMenu({ user: sessionUser }: { user: ShellUser }) {
  const { me, role, organization } = useCurrentProject();
  const user = me?.user ?? sessionUser;
  const [open, setOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, container, button, close);

  return (
    <div ref={container} className="relative">
      {open && (
        <div id={panelId} className="absolute inset-x-0 bottom-full z-30 mb-1.5 rounded-lg bg-white p-1 shadow-lg ring-1 ring-slate-900/10">
          <div className="px-2.5 pt-2 pb-2.5">
            <p className="truncate text-sm font-medium text-slate-900">{user.name || user.email}</p>
            {user.name && <p className="truncate text-xs text-slate-500">{user.email}</p>}
            {role && organization && (
              <p className="mt-2 flex items-center gap-1.5 text-xs text-slate-500">
                <RoleBadge role={role} />
                <span className="truncate">in {organization.name}</span>
              </p>
            )}
          </div>
          <div className="my-1 h-px bg-slate-100" />
          <button
            type="button"
            onClick={() => {
              setSigningOut(true);
              void signOut({ callbackUrl: "/sign-in" });
            }}
            disabled={signingOut}
            className="flex h-8 w-full items-center gap-2 rounded-md px-2.5 text-left text-sm text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-indigo-600 disabled:opacity-60"
          >
            {signingOut ? <Spinner size={16} /> : <SignOutIcon className="text-slate-400" />}
            Sign out
          </button>
        </div>
      )}
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((current) => !current)}
        className={cn(
          "flex w-full items-center gap-2.5 rounded-lg px-2 py-1.5 text-left transition-colors",
          "hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-indigo-600",
          open && "bg-slate-100",
        )}
      >
        <span aria-hidden="true" className="flex size-8 shrink-0 items-center justify-center rounded-full bg-slate-800 text-xs font-semibold text-white">
          {initials(user)}
        </span>
        <span className="min-w-0 flex-1">
          <span className="sr-only">Account menu: </span>
          <span className="block truncate text-sm font-medium text-slate-800">{user.name || user.email}</span>
          <span className="block truncate text-xs text-slate-500">{role ? ROLE_LABELS[role] : user.name ? user.email : ""}</span>
        </span>
        <ChevronUpDownIcon className="shrink-0 text-slate-400" />
      </button>
    </div>
  );
}
