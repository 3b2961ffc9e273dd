import fs from "node:fs";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";

/**
 * One Node floor (issue 32 item 17): package.json's `engines.node` is the range we support, README's
 * set-up line says the same, and every package in the lockfile declares that it runs on every version
 * of that range. A dependency that asks for more is either upgraded away from or listed below with
 * the reason it runs anyway; a listed one is tested by the whole suite, which CI runs on Node 20.
 */
const root = path.resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { engines: { node: string } };
const lock = JSON.parse(fs.readFileSync(path.join(root, "package-lock.json"), "utf8")) as {
  packages: Record<string, { name?: string; version?: string; optional?: boolean; engines?: { node?: string } | string[] }>;
};
const supported = pkg.engines.node;

/** name@version → why it is used outside its declared engines. Keep it short and keep it true. */
const OUTSIDE_THEIR_ENGINES: Record<string, string> = {
  "pg-boss@12.35.0":
    "declares Node >= 22.12 from 11.0 on (the last release for Node 20, 10.x, has neither the PGlite adapter nor the API lib/ports/queue uses); " +
    "its code uses nothing Node 20.19 lacks, and every job path runs in our suite on Node 20 (README 'Why each dependency').",
};

interface Installed {
  id: string;
  optional: boolean;
  node: string;
}

function installedWithNodeEngines(): Installed[] {
  return Object.entries(lock.packages).flatMap(([location, entry]) => {
    const node = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
    if (!location || !node || !entry.version) return [];
    const name = entry.name ?? location.slice(location.lastIndexOf("node_modules/") + "node_modules/".length);
    return [{ id: `${name}@${entry.version}`, optional: entry.optional === true, node }];
  });
}

/** "^20.19.0 || ^22.13.0 || >=24" → "Node 20.19+, 22.13+ or 24+", as README's set-up line says it. */
function readmeWording(range: string): string {
  const floors = range.split("||").map((alternative) => {
    const lowest = semver.minVersion(alternative.trim())!;
    return lowest.minor === 0 && lowest.patch === 0 ? `${lowest.major}+` : `${lowest.major}.${lowest.minor}+`;
  });
  return `Node ${floors.length > 1 ? `${floors.slice(0, -1).join(", ")} or ${floors.at(-1)}` : floors[0]}`;
}

describe("the Node versions we support", () => {
  it("are a valid range, and README's set-up line names the same floors", () => {
    expect(semver.validRange(supported)).not.toBeNull();
    const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
    expect(readme).toContain(`a fresh machine with ${readmeWording(supported)} needs`);
  });

  it("include the Node running these tests (CI's Node 20 is inside the range)", () => {
    expect(semver.satisfies(process.versions.node, supported)).toBe(true);
  });

  it("are all admitted by every installed package's engines, but for the listed exceptions", () => {
    const refused = installedWithNodeEngines()
      .filter(({ id }) => !(id in OUTSIDE_THEIR_ENGINES))
      // A platform binary that is optional only has to run somewhere in the range: its parent falls back without it.
      .filter(({ optional, node }) => !(optional ? semver.intersects(supported, node) : semver.subset(supported, node)))
      .map(({ id, node }) => `${id} wants node ${node}`);
    expect(refused).toEqual([]);
  });

  it("lists only exceptions that are installed and still needed", () => {
    const installed = new Map(installedWithNodeEngines().map((p) => [p.id, p.node]));
    for (const id of Object.keys(OUTSIDE_THEIR_ENGINES)) {
      const node = installed.get(id);
      expect(node, `${id} is not in package-lock.json: drop it from OUTSIDE_THEIR_ENGINES`).toBeDefined();
      expect(semver.subset(supported, node!), `${id} (node ${node}) now admits ${supported}: drop it from OUTSIDE_THEIR_ENGINES`).toBe(false);
    }
  });
});
