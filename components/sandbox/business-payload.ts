// The business message arrives as the provider's JSON: these read its parts without trusting their shape.

export type Obj = Record<string, unknown>;

export const obj = (value: unknown): Obj | null => (value && typeof value === "object" && !Array.isArray(value) ? (value as Obj) : null);

export const str = (value: unknown): string | null => (typeof value === "string" && value ? value : null);

export const list = (value: unknown): Obj[] => (Array.isArray(value) ? value.map(obj).filter((item): item is Obj => item !== null) : []);
