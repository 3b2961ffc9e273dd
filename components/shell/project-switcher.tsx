"use client";

import { usePathname, useRouter } from "next/navigation";
import { useCallback, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { cn } from "@/components/ui/cn";
import { CheckIcon, ChevronUpDownIcon, RefreshIcon } from "@/components/ui/icons";
import { Skeleton } from "@/components/ui/skeleton";
import { useCurrentProject, useMe } from "@/lib/client/me";
import { currentSection, projectPath } from "./nav-links";
import { useDismiss } from "./use-dismiss";

interface Option {
  projectId: string;
  name: string;
  organizationName: string;
}

/**
 * Every project of every organization the operator belongs to, grouped by organization. A listbox
 * (arrow keys, Home/End, type-ahead, Enter) that keeps the current section: switching from
 * /projects/a/webhooks lands on /projects/b/webhooks.
 */
export function ProjectSwitcher() {
  const me = useMe();
  const { projectId, project, organization } = useCurrentProject();
  const router = useRouter();
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const typeahead = useRef({ text: "", at: 0 });
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const listbox = useRef<HTMLDivElement>(null);
  const id = useId();

  const options = useMemo<Option[]>(
    () => (me.data?.organizations ?? []).flatMap((org) => org.projects.map((p) => ({ projectId: p.id, name: p.name, organizationName: org.name }))),
    [me.data],
  );
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, container, button, close);

  const optionId = (index: number) => `${id}-option-${index}`;

  const openList = () => {
    const current = options.findIndex((option) => option.projectId === projectId);
    setActive(current >= 0 ? current : 0);
    setOpen(true);
    // The listbox mounts in this render; focus it on the next frame.
    requestAnimationFrame(() => listbox.current?.focus());
  };

  const choose = (index: number) => {
    const option = options[index];
    setOpen(false);
    button.current?.focus();
    if (!option || option.projectId === projectId) return;
    router.push(projectPath(option.projectId, currentSection(pathname)));
  };

  const moveTo = (index: number) => {
    setActive(index);
    document.getElementById(optionId(index))?.scrollIntoView({ block: "nearest" });
  };

  const onListKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const last = options.length - 1;
    switch (event.key) {
      case "ArrowDown":
        event.preventDefault();
        moveTo(Math.min(last, active + 1));
        return;
      case "ArrowUp":
        event.preventDefault();
        moveTo(Math.max(0, active - 1));
        return;
      case "Home":
        event.preventDefault();
        moveTo(0);
        return;
      case "End":
        event.preventDefault();
        moveTo(last);
        return;
      case "Enter":
      case " ":
        event.preventDefault();
        choose(active);
        return;
      case "Tab":
        setOpen(false);
        return;
    }
    if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      // Type-ahead: letters typed within a second build a prefix to jump to.
      const now = Date.now();
      const text = (now - typeahead.current.at < 1000 ? typeahead.current.text : "") + event.key.toLowerCase();
      typeahead.current = { text, at: now };
      const match = options.findIndex((option) => option.name.toLowerCase().startsWith(text));
      if (match >= 0) moveTo(match);
    }
  };

  if (me.isPending) {
    return (
      <div className="flex h-12 items-center gap-2.5 rounded-lg px-2.5 ring-1 ring-slate-200" role="status">
        <span className="sr-only">Loading projects…</span>
        <Skeleton className="size-7 rounded-md" />
        <div className="flex-1 space-y-1.5">
          <Skeleton className="h-3 w-24" />
          <Skeleton className="h-2.5 w-16" />
        </div>
      </div>
    );
  }

  if (me.isError) {
    return (
      <button
        type="button"
        onClick={() => me.refetch()}
        className="flex h-12 w-full items-center gap-2 rounded-lg px-2.5 text-left text-sm text-slate-600 ring-1 ring-slate-200 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <RefreshIcon className="shrink-0 text-slate-400" />
        <span>Couldn&apos;t load projects. Retry</span>
      </button>
    );
  }

  const groups = (me.data?.organizations ?? []).filter((org) => org.projects.length > 0);
  let index = -1;
  return (
    <div ref={container} className="relative">
      <button
        ref={button}
        type="button"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? `${id}-listbox` : undefined}
        onClick={() => (open ? setOpen(false) : openList())}
        onKeyDown={(event) => {
          if ((event.key === "ArrowDown" || event.key === "ArrowUp") && !open) {
            event.preventDefault();
            openList();
          }
        }}
        className={cn(
          "flex h-12 w-full items-center gap-2.5 rounded-lg bg-white px-2.5 text-left shadow-xs ring-1 ring-slate-200 transition-colors",
          "hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600",
          open && "bg-slate-50",
        )}
      >
        <ProjectAvatar name={project?.name ?? "?"} />
        <span className="min-w-0 flex-1">
          <span className="sr-only">Switch project. Current project: </span>
          <span className="block truncate text-sm font-medium text-slate-900">{project?.name ?? "Unknown project"}</span>
          <span className="block truncate text-xs text-slate-500">{organization?.name ?? "Not in your organizations"}</span>
        </span>
        <ChevronUpDownIcon className="shrink-0 text-slate-400" />
      </button>

      {open && (
        <div
          ref={listbox}
          id={`${id}-listbox`}
          role="listbox"
          aria-label="Projects"
          tabIndex={0}
          aria-activedescendant={options.length ? optionId(active) : undefined}
          onKeyDown={onListKeyDown}
          className="absolute inset-x-0 top-full z-30 mt-1.5 max-h-80 overflow-y-auto rounded-lg bg-white p-1 shadow-lg ring-1 ring-slate-900/10 focus:outline-none"
        >
          {groups.length === 0 && <p className="px-2.5 py-2 text-sm text-slate-500">No projects yet.</p>}
          {groups.map((org) => (
            <div key={org.id} role="group" aria-labelledby={`${id}-org-${org.id}`} className="py-0.5">
              <div id={`${id}-org-${org.id}`} className="truncate px-2.5 pt-1.5 pb-1 text-[11px] font-semibold tracking-wide text-slate-500 uppercase">
                {org.name}
              </div>
              {org.projects.map((item) => {
                index += 1;
                const optionIndex = index;
                const selected = item.id === projectId;
                return (
                  <div
                    key={item.id}
                    id={optionId(optionIndex)}
                    role="option"
                    aria-selected={selected}
                    onMouseMove={() => active !== optionIndex && setActive(optionIndex)}
                    onClick={() => choose(optionIndex)}
                    className={cn(
                      "flex h-9 cursor-pointer items-center gap-2.5 rounded-md px-2.5 text-sm",
                      optionIndex === active ? "bg-slate-100 text-slate-900" : "text-slate-700",
                    )}
                  >
                    <ProjectAvatar name={item.name} small />
                    <span className="min-w-0 flex-1 truncate">{item.name}</span>
                    {selected && <CheckIcon className="shrink-0 text-indigo-600" />}
                  </div>
                );
              })}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

/** A coloured initial, so projects are told apart at a glance. */
function ProjectAvatar({ name, small }: { name: string; small?: boolean }) {
  const palette = [
    "bg-indigo-100 text-indigo-700",
    "bg-emerald-100 text-emerald-700",
    "bg-amber-100 text-amber-800",
    "bg-sky-100 text-sky-700",
    "bg-rose-100 text-rose-700",
    "bg-violet-100 text-violet-700",
  ];
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return (
    <span
      aria-hidden="true"
      className={cn(
        "flex shrink-0 items-center justify-center rounded-md font-semibold",
        small ? "size-5 text-[10px]" : "size-7 text-xs",
        palette[hash % palette.length],
      )}
    >
      {name.trim().charAt(0).toUpperCase() || "?"}
    </span>
  );
}
