// Small, defensive readers for the provider's JSON: a wrong type reads as null, never throws.

export type Obj = Record<string, unknown>;

export function obj(v: unknown): Obj | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : null;
}

export function objs(v: unknown): Obj[] {
  return Array.isArray(v) ? v.map(obj).filter((o): o is Obj => o !== null) : [];
}

export function str(v: unknown): string | null {
  return typeof v === "string" && v !== "" ? v : null;
}

export function strOrNum(v: unknown): string | null {
  return typeof v === "number" && Number.isFinite(v) ? String(v) : str(v);
}

export function num(v: unknown): number | null {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
}

/** The listed keys of an object whose values are non-empty strings (contact-card parts). */
export function pick(o: Obj | null, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of keys) {
    const v = str(o?.[k]);
    if (v !== null) out[k] = v;
  }
  return out;
}

export function digits(v: string | null): string | null {
  return v === null ? null : v.replace(/^\+/, "");
}

/** Provider unix seconds (string or number) → ISO 8601. */
export function unixToIso(v: unknown): string | null {
  const seconds = num(v);
  const date = seconds === null || seconds <= 0 ? null : new Date(seconds * 1000);
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : null;
}

export function parseObject(v: unknown): Record<string, unknown> | null {
  if (typeof v !== "string") return obj(v);
  try {
    return obj(JSON.parse(v));
  } catch {
    return null;
  }
}

/** Per-item insurance: one item the readers above did not foresee must not sink the delivery. */
export function guard(fn: () => void): void {
  try {
    fn();
  } catch {
    /* skipped */
  }
}
