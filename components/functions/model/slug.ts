/** The spec's slug rule (FunctionCreate: 1 to 64, `^[a-z][a-z0-9-]*$`), checked before sending. */
const SLUG_PATTERN = /^[a-z][a-z0-9-]*$/;
export const SLUG_MAX = 64;

/** A slug suggested from the name while the operator has not typed one: "Order status!" → "order-status". */
export function slugFromName(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^[^a-z]+/, "")
    .slice(0, SLUG_MAX)
    .replace(/-+$/, "");
  return slug;
}

export function slugProblem(slug: string): string | undefined {
  if (!slug) return "Give the function a slug.";
  if (slug.length > SLUG_MAX) return `At most ${SLUG_MAX} characters.`;
  if (!SLUG_PATTERN.test(slug)) return "Lower-case letters, digits and '-', starting with a letter.";
  return undefined;
}
