/** The part of `semver` (no types of its own; @types/semver is not installed) that tests/meta uses. */
declare module "semver" {
  interface SemVer {
    major: number;
    minor: number;
    patch: number;
  }
  const semver: {
    validRange(range: string): string | null;
    minVersion(range: string): SemVer | null;
    satisfies(version: string, range: string): boolean;
    /** Whether every version `sub` admits is admitted by `dom`. */
    subset(sub: string, dom: string): boolean;
    intersects(a: string, b: string): boolean;
  };
  export default semver;
}
