import type { IconProps } from "@/components/ui";

/** A megaphone, drawn like components/ui/icons.tsx (20×20 strokes, currentColor, hidden from assistive tech). */
export function BroadcastsIcon({ size = 16, ...props }: IconProps) {
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
      <path d="M3 8v4h3l6 3.5v-11L6 8z" />
      <path d="M6 12l1 4h2l-.8-3.2" />
      <path d="M15 7.5a3 3 0 0 1 0 5" />
    </svg>
  );
}
