/** Small display helpers shared by the webhook views. */

const integer = new Intl.NumberFormat("en");

export function formatCount(value: number): string {
  return integer.format(value);
}

/** 0.9823 → "98.2%"; whole numbers lose the ".0". */
export function formatPercent(rate: number): string {
  const percent = Math.round(rate * 1000) / 10;
  return `${Number.isInteger(percent) ? percent.toFixed(0) : percent.toFixed(1)}%`;
}

/** 87 → "87 ms", 1530 → "1.53 s", 12000 → "12 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  return `${seconds < 10 ? Number(seconds.toFixed(2)) : Math.round(seconds)} s`;
}

/** "in the last 24 h" / "in the last 7 days" for a stats window. */
export function windowPhrase(hours: number): string {
  if (hours % 24 === 0 && hours > 24) return `in the last ${hours / 24} days`;
  return `in the last ${hours} h`;
}

/** A response code's tone: 2xx succeeded, anything else (or no response at all) failed. */
export function isSuccessCode(code: number | null | undefined): boolean {
  return typeof code === "number" && code >= 200 && code < 300;
}
