import type { IconProps } from "@/components/ui";

/** Templates: a message bubble with lines of text and a placeholder mark, in the style of components/ui/icons.tsx. */
export function TemplatesIcon({ size = 16, ...props }: IconProps) {
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
      <path d="M4 3.5h12a1 1 0 0 1 1 1v8a1 1 0 0 1-1 1H9l-3.5 3v-3H4a1 1 0 0 1-1-1v-8a1 1 0 0 1 1-1Z" />
      <path d="M6 7h8M6 10h3.5" />
      <path d="M12 10h2" strokeDasharray="0.1 1.9" strokeWidth={2} />
    </svg>
  );
}
