import { canonicalLocale } from "@/lib/domain/flows/crud";
import type { Draft, FlowJson } from "@/lib/domain/flows/flow-json/types";
import type { FlowRow } from "@/lib/domain/flows/serialize";
import type { FlowEntry } from "./flow-entry";

/**
 * A flow entry as the project will hold it: locale canonical (pt-br → pt-BR, "" → null, the group
 * default) and every omitted field at its stored default, so comparing it with a row is comparing values.
 */
export interface DesiredFlow {
  index: number;
  key: string;
  locale: string | null;
  /** How a diff item and an issue name the variant: "welcome" (the group default) or "welcome@es". */
  identity: string;
  name: string;
  description: string | null;
  runtimeMode: "STATIC" | "DATA_EXCHANGE";
  dataExchangeUrl: string | null;
  source: { draft: Draft } | { flow_json: FlowJson };
}

export function flowIdentity(key: string, locale: string | null): string {
  return locale ? `${key}@${locale}` : key;
}

export function rowIdentity(row: FlowRow): string {
  return flowIdentity(row.configKey ?? "", row.locale);
}

/** The canonical locale, or undefined when it is not a BCP-47 tag (an issue elsewhere). */
export function localeOf(locale: string | null | undefined): string | null | undefined {
  try {
    return canonicalLocale(locale);
  } catch {
    return undefined;
  }
}

/** The entries whose locale is a tag; others are left out (validate reports them). */
export function desiredFlows(entries: readonly FlowEntry[]): DesiredFlow[] {
  const out: DesiredFlow[] = [];
  entries.forEach((entry, index) => {
    const locale = localeOf(entry.locale);
    if (locale === undefined) return;
    out.push({
      index,
      key: entry.key,
      locale,
      identity: flowIdentity(entry.key, locale),
      name: entry.name,
      description: entry.description ?? null,
      runtimeMode: entry.runtime_mode ?? "STATIC",
      dataExchangeUrl: entry.data_exchange_url ?? null,
      source: entry.draft ? { draft: entry.draft as Draft } : { flow_json: entry.flow_json as FlowJson },
    });
  });
  return out;
}

/** Config-owned flows: a config_key, and not DEPRECATED (a deprecated flow gave its key and locale back). */
export function isConfigOwned(row: FlowRow): boolean {
  return row.configKey !== null && row.status !== "DEPRECATED";
}
