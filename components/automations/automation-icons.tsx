import type { ReactNode } from "react";
import type { IconProps } from "@/components/ui/icons";

/** Icons of automations, drawn like components/ui/icons.tsx (20×20 strokes, currentColor, aria-hidden). */
function Stroke({ size = 16, children, ...props }: IconProps & { children: ReactNode }) {
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

/** Automations: a bolt (something happens by itself). */
export const AutomationsIcon = (p: IconProps) => (
  <Stroke {...p}>
    <path d="M11 2.5 4.5 11H10l-1 6.5L15.5 9H10z" />
  </Stroke>
);
export const ReplyStepIcon = (p: IconProps) => (
  <Stroke {...p}>
    <path d="M4 4.5h12a1 1 0 0 1 1 1v7a1 1 0 0 1-1 1H8l-3.5 3v-3H4a1 1 0 0 1-1-1v-7a1 1 0 0 1 1-1Z" />
    <path d="M6.5 8h7M6.5 10.5h4.5" />
  </Stroke>
);
export const DelayStepIcon = (p: IconProps) => (
  <Stroke {...p}>
    <circle cx="10" cy="10" r="7" />
    <path d="M10 6v4l2.5 2" />
  </Stroke>
);
export const WaitReplyStepIcon = (p: IconProps) => (
  <Stroke {...p}>
    <path d="M6 3.5h8M6 16.5h8" />
    <path d="M7 3.5V6l3 4 3-4V3.5M7 16.5V14l3-4 3 4v2.5" />
  </Stroke>
);
export const HandoffStepIcon = (p: IconProps) => (
  <Stroke {...p}>
    <circle cx="10" cy="6.5" r="3" />
    <path d="M4.5 16.5c.8-3 3-4.5 5.5-4.5s4.7 1.5 5.5 4.5" />
  </Stroke>
);
/** A trigger: the message that starts a run. */
export const TriggerIcon = (p: IconProps) => (
  <Stroke {...p}>
    <path d="M3 5.5h9a1 1 0 0 1 1 1v5a1 1 0 0 1-1 1H7l-3 2.5v-2.5H3" />
    <path d="M15 7.5h2M15 10h2.5M15 12.5h2" />
  </Stroke>
);
