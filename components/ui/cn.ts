/** Joins class names, skipping falsy ones, so conditional Tailwind classes read as one expression. */
export function cn(...parts: Array<string | false | null | undefined>): string {
  return parts.filter(Boolean).join(" ");
}
