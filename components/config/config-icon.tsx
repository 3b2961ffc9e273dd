import type { IconProps } from "@/components/ui/icons";

/** Config: a document with code in it, drawn like components/ui/icons.tsx. */
export function ConfigIcon({ size = 16, ...props }: IconProps) {
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
      <path d="M5 2.5h6.5L15 6v11.5H5z" />
      <path d="M11.5 2.5V6H15" />
      <path d="M8.5 10 7 11.5 8.5 13M11.5 10l1.5 1.5-1.5 1.5" />
    </svg>
  );
}
