/**
 * DELETE /functions/{id} → 409 function_in_use carries `references`: what uses the function
 * (automations, agent tools). Its items' shape is the API's to decide, so each is read defensively:
 * a string as is, an object by its type and name (or key, or id).
 */
export function describeReferences(references: unknown): string[] {
  if (!Array.isArray(references)) return [];
  return references
    .map((reference) => {
      if (typeof reference === "string") return reference;
      if (!reference || typeof reference !== "object") return null;
      const record = reference as Record<string, unknown>;
      const kind = typeof record.type === "string" ? record.type.replaceAll("_", " ") : null;
      const label = [record.name, record.key, record.id].find((value) => typeof value === "string" && value) as string | undefined;
      if (!label) return kind;
      return kind ? `${kind} ${label}` : label;
    })
    .filter((text): text is string => Boolean(text));
}
