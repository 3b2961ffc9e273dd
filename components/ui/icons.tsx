import type { ReactNode, SVGProps } from "react";

/**
 * Inline 20×20 stroke icons (no icon package). They inherit `currentColor`, default to 16px and
 * are hidden from assistive tech: every icon sits next to a visible or sr-only text label.
 */
export type IconProps = SVGProps<SVGSVGElement> & { size?: number };

function Icon({ size = 16, children, ...props }: IconProps & { children: ReactNode }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 20 20"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.6}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}

export const HomeIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 9.5 10 3.5l7 6" />
    <path d="M5 8v8.5h3.5V12h3v4.5H15V8" />
  </Icon>
);
export const InboxIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 11.5 5 4h10l2 7.5V16H3z" />
    <path d="M3 11.5h4l1 2h4l1-2h4" />
  </Icon>
);
export const ChannelsIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 5.5h12a1 1 0 0 1 1 1v6a1 1 0 0 1-1 1H9l-3.5 3v-3H4a1 1 0 0 1-1-1v-6a1 1 0 0 1 1-1Z" />
    <path d="M7 9.5h.01M10 9.5h.01M13 9.5h.01" strokeWidth={2.2} />
  </Icon>
);
export const WebhookIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="6" cy="14" r="2" />
    <circle cx="14" cy="14" r="2" />
    <circle cx="10" cy="5.5" r="2" />
    <path d="m9 7.3-2.5 4.8M8 14h4M11 7.3l2.5 4.8" />
  </Icon>
);
/** Flows: two stacked screens with an arrow from one to the next. */
export const FlowsIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="2.5" y="3.5" width="6" height="8" rx="1" />
    <rect x="11.5" y="8.5" width="6" height="8" rx="1" />
    <path d="M8.5 7.5h3.5a1.5 1.5 0 0 1 1.5 1.5" />
    <path d="M4.5 6.5h2M4.5 8.5h2M13.5 11.5h2M13.5 13.5h2" />
  </Icon>
);
/** Functions: a pair of curly braces around code. */
export const FunctionsIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M7 3.5c-1.4 0-2 .7-2 2v2.2c0 1-.5 1.8-1.5 2.3 1 .5 1.5 1.3 1.5 2.3v2.2c0 1.3.6 2 2 2" />
    <path d="M13 3.5c1.4 0 2 .7 2 2v2.2c0 1 .5 1.8 1.5 2.3-1 .5-1.5 1.3-1.5 2.3v2.2c0 1.3-.6 2-2 2" />
    <path d="M8.5 10h.01M11.5 10h.01" strokeWidth={2.2} />
  </Icon>
);
export const KeyIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="7" cy="12.5" r="3.5" />
    <path d="m9.5 10 6-6M13 6.5l2 2M11.5 8l1.5 1.5" />
  </Icon>
);
export const PhoneIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="5.5" y="2.5" width="9" height="15" rx="2" />
    <path d="M9 14.5h2" />
  </Icon>
);
export const UsersIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="8" cy="7" r="3" />
    <path d="M2.5 16.5c.6-2.9 2.8-4.5 5.5-4.5s4.9 1.6 5.5 4.5" />
    <path d="M13 4.2a3 3 0 0 1 0 5.6M15 12.4c1.4.6 2.2 2 2.5 4.1" />
  </Icon>
);
export const MenuIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 5.5h14M3 10h14M3 14.5h14" />
  </Icon>
);
export const CloseIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="m5 5 10 10M15 5 5 15" />
  </Icon>
);
export const ChevronDownIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="m5.5 8 4.5 4.5L14.5 8" />
  </Icon>
);
export const ChevronUpDownIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="m6.5 7.5 3.5-3.5 3.5 3.5M6.5 12.5l3.5 3.5 3.5-3.5" />
  </Icon>
);
export const ChevronRightIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="m8 5.5 4.5 4.5L8 14.5" />
  </Icon>
);
export const CheckIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="m4.5 10.5 3.5 3.5 7.5-8" />
  </Icon>
);
export const CopyIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="7" y="7" width="9.5" height="9.5" rx="1.5" />
    <path d="M13 7V4.5A1.5 1.5 0 0 0 11.5 3h-7A1.5 1.5 0 0 0 3 4.5v7A1.5 1.5 0 0 0 4.5 13H7" />
  </Icon>
);
export const EyeIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M2 10s3-5.5 8-5.5S18 10 18 10s-3 5.5-8 5.5S2 10 2 10Z" />
    <circle cx="10" cy="10" r="2.5" />
  </Icon>
);
export const EyeOffIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M8.2 4.7A8 8 0 0 1 10 4.5c5 0 8 5.5 8 5.5a14 14 0 0 1-2.3 3M5.3 5.8C3.2 7.3 2 10 2 10s3 5.5 8 5.5a7.7 7.7 0 0 0 4-1.1" />
    <path d="M8.3 8.3a2.5 2.5 0 0 0 3.4 3.4M3 3l14 14" />
  </Icon>
);
export const AlertIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M10 3 2.5 16.5h15Z" />
    <path d="M10 8.5v3.5M10 14.5h.01" />
  </Icon>
);
export const InfoIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="10" cy="10" r="7.5" />
    <path d="M10 9v5M10 6.5h.01" />
  </Icon>
);
export const CheckCircleIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="10" cy="10" r="7.5" />
    <path d="m6.8 10.3 2.2 2.2 4.2-4.6" />
  </Icon>
);
export const XCircleIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="10" cy="10" r="7.5" />
    <path d="m7.5 7.5 5 5M12.5 7.5l-5 5" />
  </Icon>
);
export const PlusIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M10 4v12M4 10h12" />
  </Icon>
);
export const RefreshIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M16 10a6 6 0 1 1-1.8-4.3" />
    <path d="M16 3.5v3.5h-3.5" />
  </Icon>
);
export const SignOutIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M8 16.5H4.5a1 1 0 0 1-1-1v-11a1 1 0 0 1 1-1H8" />
    <path d="M13 13.5 16.5 10 13 6.5M16.5 10H8" />
  </Icon>
);
export const ExternalLinkIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M11.5 3.5h5v5M16.5 3.5 9.5 10.5" />
    <path d="M14.5 11.5v4a1 1 0 0 1-1 1h-9a1 1 0 0 1-1-1v-9a1 1 0 0 1 1-1h4" />
  </Icon>
);
export const SearchIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="9" cy="9" r="5.5" />
    <path d="m13 13 4 4" />
  </Icon>
);
export const TrashIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3.5 5.5h13M8 5.5V3.5h4v2M5 5.5l.8 11h8.4l.8-11" />
  </Icon>
);
export const FolderIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M2.5 5.5a1 1 0 0 1 1-1h4l1.5 2h7.5a1 1 0 0 1 1 1v8a1 1 0 0 1-1 1h-13a1 1 0 0 1-1-1Z" />
  </Icon>
);

/** Templates: a message with a placeholder in it. */
export const TemplatesIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 3.5h12a1 1 0 0 1 1 1v8a1 1 0 0 1-1 1H9l-3.5 3v-3H4a1 1 0 0 1-1-1v-8a1 1 0 0 1 1-1Z" />
    <path d="M6 7h8M6 10h3.5" />
    <path d="M12 10h2" strokeDasharray="0.1 1.9" strokeWidth={2} />
  </Icon>
);
/** Config: a document with code in it. */
export const ConfigIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M5 2.5h6.5L15 6v11.5H5z" />
    <path d="M11.5 2.5V6H15" />
    <path d="M8.5 10 7 11.5 8.5 13M11.5 10l1.5 1.5-1.5 1.5" />
  </Icon>
);
/** Automations: a bolt (something happens by itself). */
export const AutomationsIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M11 2.5 4.5 11H10l-1 6.5L15.5 9H10z" />
  </Icon>
);
/** Agent: a robot head with an antenna (the business agent that answers by itself). */
export const AgentIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="4" y="6.5" width="12" height="9" rx="2" />
    <path d="M10 6.5V4M10 4h.01" />
    <path d="M7.5 10.5h.01M12.5 10.5h.01" strokeWidth={2.2} />
    <path d="M8 13h4M2.5 10v2.5M17.5 10v2.5" />
  </Icon>
);
export const ReplyStepIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 4.5h12a1 1 0 0 1 1 1v7a1 1 0 0 1-1 1H8l-3.5 3v-3H4a1 1 0 0 1-1-1v-7a1 1 0 0 1 1-1Z" />
    <path d="M6.5 8h7M6.5 10.5h4.5" />
  </Icon>
);
export const DelayStepIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="10" cy="10" r="7" />
    <path d="M10 6v4l2.5 2" />
  </Icon>
);
export const WaitReplyStepIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M6 3.5h8M6 16.5h8" />
    <path d="M7 3.5V6l3 4 3-4V3.5M7 16.5V14l3-4 3 4v2.5" />
  </Icon>
);
export const HandoffStepIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="10" cy="6.5" r="3" />
    <path d="M4.5 16.5c.8-3 3-4.5 5.5-4.5s4.7 1.5 5.5 4.5" />
  </Icon>
);
/** A trigger: the message that starts a run. */
export const TriggerIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 5.5h9a1 1 0 0 1 1 1v5a1 1 0 0 1-1 1H7l-3 2.5v-2.5H3" />
    <path d="M15 7.5h2M15 10h2.5M15 12.5h2" />
  </Icon>
);
/** A megaphone: broadcasts. */
export const BroadcastsIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 8v4h3l6 3.5v-11L6 8z" />
    <path d="M6 12l1 4h2l-.8-3.2" />
    <path d="M15 7.5a3 3 0 0 1 0 5" />
  </Icon>
);
/** Audit log: a clock with its hand turned back (a history of what was done). */
export const AuditIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3.5 10a6.5 6.5 0 1 0 1.9-4.6" />
    <path d="M3.5 3.5v2.5h2.5" />
    <path d="M10 6.5V10l2.5 1.5" />
  </Icon>
);
