// Reading parseArgs flags, with the errors the CLI prints as they are.
export function required(flags: Record<string, string | boolean | undefined>, name: string): string {
  const value = flags[name];
  if (typeof value !== "string" || value === "") throw new Error(`--${name} is required.`);
  return value;
}

export function list(value: string | boolean | undefined): string[] {
  return typeof value === "string"
    ? value
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
}

export function integer(flags: Record<string, string | boolean | undefined>, name: string): number {
  const value = Number(required(flags, name));
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive whole number.`);
  return value;
}
