"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { createContext, useContext, useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { cn } from "./cn";

interface TabsContextValue {
  value: string;
  select: (value: string) => void;
  baseId: string;
}

const TabsContext = createContext<TabsContextValue | null>(null);

function useTabs(): TabsContextValue {
  const context = useContext(TabsContext);
  if (!context) throw new Error("Tab, TabList and TabPanel must be inside <Tabs>.");
  return context;
}

const slug = (value: string) => value.replace(/[^a-zA-Z0-9_-]/g, "_");

export interface TabsProps {
  /** Controlled value (pair with onValueChange) … */
  value?: string;
  /** … or uncontrolled, starting here. */
  defaultValue?: string;
  onValueChange?: (value: string) => void;
  className?: string;
  children: ReactNode;
}

/** In-page tabs (WAI-ARIA tabs: arrow keys, Home/End, automatic activation). For URL sub-pages use NavTabs. */
export function Tabs({ value, defaultValue = "", onValueChange, className, children }: TabsProps) {
  const [internal, setInternal] = useState(defaultValue);
  const current = value ?? internal;
  const baseId = useId();
  const select = (next: string) => {
    if (value === undefined) setInternal(next);
    onValueChange?.(next);
  };
  return (
    <TabsContext.Provider value={{ value: current, select, baseId }}>
      <div className={className}>{children}</div>
    </TabsContext.Provider>
  );
}

/** The row of tabs; `label` names it for screen readers. */
export function TabList({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const tabs = Array.from(ref.current?.querySelectorAll<HTMLButtonElement>('[role="tab"]:not([disabled])') ?? []);
    const index = tabs.indexOf(document.activeElement as HTMLButtonElement);
    if (index < 0) return;
    const next =
      event.key === "ArrowRight"
        ? tabs[(index + 1) % tabs.length]
        : event.key === "ArrowLeft"
          ? tabs[(index - 1 + tabs.length) % tabs.length]
          : event.key === "Home"
            ? tabs[0]
            : event.key === "End"
              ? tabs[tabs.length - 1]
              : undefined;
    if (!next) return;
    event.preventDefault();
    next.focus();
    next.click();
  };
  return (
    <div
      ref={ref}
      role="tablist"
      aria-label={label}
      onKeyDown={onKeyDown}
      className={cn("flex gap-5 overflow-x-auto shadow-[inset_0_-1px_0_var(--color-slate-200)]", className)}
    >
      {children}
    </div>
  );
}

const tabClasses = (selected: boolean) =>
  cn(
    "relative inline-flex h-10 shrink-0 items-center gap-2 border-b-2 px-0.5 text-sm font-medium whitespace-nowrap transition-colors",
    "focus-visible:rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600",
    selected ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-500 hover:border-slate-300 hover:text-slate-800",
  );

/** One tab; `count` shows a small number after the label. */
export function Tab({ value, count, disabled, children }: { value: string; count?: number; disabled?: boolean; children: ReactNode }) {
  const tabs = useTabs();
  const selected = tabs.value === value;
  return (
    <button
      type="button"
      role="tab"
      id={`${tabs.baseId}-tab-${slug(value)}`}
      aria-selected={selected}
      aria-controls={`${tabs.baseId}-panel-${slug(value)}`}
      tabIndex={selected ? 0 : -1}
      disabled={disabled}
      onClick={() => tabs.select(value)}
      className={cn(tabClasses(selected), "disabled:cursor-not-allowed disabled:opacity-50")}
    >
      {children}
      {count !== undefined && (
        <span className={cn("rounded-full px-1.5 text-xs tabular-nums", selected ? "bg-indigo-50 text-indigo-700" : "bg-slate-100 text-slate-600")}>
          {count}
        </span>
      )}
    </button>
  );
}

/** The content of one tab; rendered only while its tab is selected. */
export function TabPanel({ value, className, children }: { value: string; className?: string; children: ReactNode }) {
  const tabs = useTabs();
  if (tabs.value !== value) return null;
  return (
    <div
      role="tabpanel"
      id={`${tabs.baseId}-panel-${slug(value)}`}
      aria-labelledby={`${tabs.baseId}-tab-${slug(value)}`}
      tabIndex={0}
      className={cn("pt-5 focus-visible:outline-none", className)}
    >
      {children}
    </div>
  );
}

export interface NavTab {
  href: string;
  label: string;
  /** Also active on deeper paths (e.g. /webhooks/deliveries/123). Default: exact match only. */
  prefix?: boolean;
}

/** Tab-looking links between sub-pages (real navigation, so aria-current instead of role=tab). */
export function NavTabs({ items, label, className }: { items: NavTab[]; label: string; className?: string }) {
  const pathname = usePathname();
  return (
    <nav aria-label={label} className={cn("flex gap-5 overflow-x-auto shadow-[inset_0_-1px_0_var(--color-slate-200)]", className)}>
      {items.map((item) => {
        const active = pathname === item.href || (item.prefix === true && pathname.startsWith(`${item.href}/`));
        return (
          <Link key={item.href} href={item.href} aria-current={active ? "page" : undefined} className={tabClasses(active)}>
            {item.label}
          </Link>
        );
      })}
    </nav>
  );
}
