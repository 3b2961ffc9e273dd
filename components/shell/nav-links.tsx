"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ComponentType } from "react";
import { cn } from "@/components/ui/cn";
import { BroadcastsIcon } from "@/components/ui";
import {
  AgentIcon,
  AuditIcon,
  AutomationsIcon,
  ChannelsIcon,
  ConfigIcon,
  FlowsIcon,
  FunctionsIcon,
  HomeIcon,
  InboxIcon,
  KeyIcon,
  PhoneIcon,
  ReplyStepIcon,
  TemplatesIcon,
  UsersIcon,
  WebhookIcon,
  type IconProps,
} from "@/components/ui/icons";

interface NavItem {
  /** The link's accessible name; e2e specs click links by exactly these names. */
  label: string;
  /** Path under /projects/[projectId] ("" is the overview). */
  segment: string;
  icon: ComponentType<IconProps>;
}

const NAV_ITEMS: readonly NavItem[] = [
  { label: "Overview", segment: "", icon: HomeIcon },
  { label: "Inbox", segment: "inbox", icon: InboxIcon },
  { label: "Saved replies", segment: "saved-replies", icon: ReplyStepIcon },
  { label: "Channels", segment: "channels", icon: ChannelsIcon },
  { label: "Flows", segment: "flows", icon: FlowsIcon },
  { label: "Functions", segment: "functions", icon: FunctionsIcon },
  { label: "Templates", segment: "templates", icon: TemplatesIcon },
  { label: "Broadcasts", segment: "broadcasts", icon: BroadcastsIcon },
  { label: "Automations", segment: "automations", icon: AutomationsIcon },
  { label: "Agent", segment: "agent", icon: AgentIcon },
  { label: "Config", segment: "config", icon: ConfigIcon },
  { label: "Webhooks", segment: "webhooks", icon: WebhookIcon },
  { label: "API keys", segment: "keys", icon: KeyIcon },
  { label: "Sandbox phone", segment: "sandbox", icon: PhoneIcon },
  { label: "Members", segment: "members", icon: UsersIcon },
  { label: "Audit log", segment: "audit", icon: AuditIcon },
];

export function projectPath(projectId: string, segment = ""): string {
  return `/projects/${encodeURIComponent(projectId)}${segment ? `/${segment}` : ""}`;
}

/** The first path segment after /projects/[id] ("" on the overview): the section the operator is in. */
export function currentSection(pathname: string): string {
  const match = /^\/projects\/[^/]+\/([^/?#]+)/.exec(pathname);
  return match?.[1] ?? "";
}

export function NavLinks({ projectId }: { projectId: string }) {
  const pathname = usePathname();
  const section = currentSection(pathname);
  return (
    <nav aria-label="Project">
      <ul className="space-y-0.5">
        {NAV_ITEMS.map((item) => {
          const active = section === item.segment;
          const Icon = item.icon;
          return (
            <li key={item.label}>
              <Link
                href={projectPath(projectId, item.segment)}
                aria-current={active ? "page" : undefined}
                className={cn(
                  "group flex h-8 items-center gap-2.5 rounded-md px-2.5 text-sm font-medium transition-colors",
                  "focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-indigo-600",
                  active ? "bg-slate-100 text-slate-900" : "text-slate-600 hover:bg-slate-100/70 hover:text-slate-900",
                )}
              >
                <Icon className={cn("shrink-0", active ? "text-indigo-600" : "text-slate-400 group-hover:text-slate-500")} />
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
