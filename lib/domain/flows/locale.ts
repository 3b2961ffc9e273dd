import { and, eq, ne } from "drizzle-orm";
import { flows } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { SvcError } from "@/lib/errors";
import type { FlowRow } from "./serialize";

/**
 * The locale chain of a send by config_key (docs/spec/decisions.md "Flows"): the explicit locale →
 * the contact's preferred_language → its primary subtag (pt-BR → pt) → the group default (null).
 * Duplicates are dropped, order kept.
 */
export function localeCandidates(explicit: string | null, preferred: string | null): (string | null)[] {
  const chain: (string | null)[] = [];
  const add = (tag: string | null) => {
    if (tag !== null && !chain.some((c) => c !== null && c.toLowerCase() === tag.toLowerCase())) chain.push(tag);
  };
  if (explicit) {
    add(explicit);
  } else if (preferred) {
    add(preferred);
    add(preferred.split("-")[0] ?? null);
  }
  chain.push(null);
  return chain;
}

/** The variant of a config_key group the chain lands on (case-insensitive); deprecated variants never answer. */
export async function flowForKey(ctx: Ctx, configKey: string, explicit: string | null, preferred: string | null): Promise<FlowRow> {
  const variants = await ctx.db
    .select()
    .from(flows)
    .where(and(eq(flows.projectId, ctx.project.id), eq(flows.configKey, configKey), ne(flows.status, "DEPRECATED")));
  if (variants.length === 0)
    throw new SvcError("not_found", `No flow with config_key '${configKey}' in this project.`, { issues: { config_key: ["Unknown."] } });
  for (const candidate of localeCandidates(explicit, preferred)) {
    const match = variants.find((v) => (candidate === null ? v.locale === null : v.locale?.toLowerCase() === candidate.toLowerCase()));
    if (match) return match;
  }
  const known = variants.map((v) => v.locale ?? "(default)").join(", ");
  throw new SvcError(
    "flow_not_sendable",
    `Flow group '${configKey}' has no variant for ${explicit ?? preferred ?? "the default locale"} and no default (locale null). Variants: ${known}.`,
    { reason: "NO_LOCALE_VARIANT", config_key: configKey },
  );
}
