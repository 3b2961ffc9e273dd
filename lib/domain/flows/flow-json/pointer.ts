/** RFC 6901 JSON pointers: "/screens/1/fields/0/label". `~` and `/` inside a segment are escaped (~0, ~1). */
export function pointer(...segments: Array<string | number>): string {
  return segments.map((segment) => "/" + String(segment).replaceAll("~", "~0").replaceAll("/", "~1")).join("");
}

/** A pointer one level deeper than `base`. */
export function child(base: string, ...segments: Array<string | number>): string {
  return base + pointer(...segments);
}
