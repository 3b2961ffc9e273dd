import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * `npm install` on a fresh clone leaves the tree as committed (issue 32 item 17). npm writes
 * `hasInstallScript` into the lockfile for every package with an install script, the project's own
 * `postinstall` included, and npm 11 lists every dependency's install script that package.json's
 * `allowScripts` does not decide (a later npm blocks them). So each one is decided here, by name: the
 * lockfile records no registry URLs, and npm can only match a pinned `name@version` entry against
 * one (npm-approve-scripts(1)). CI checks the same on a real install (.ci/run).
 */
const root = path.resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
  scripts?: Record<string, string>;
  allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(fs.readFileSync(path.join(root, "package-lock.json"), "utf8")) as {
  packages: Record<string, { name?: string; hasInstallScript?: boolean }>;
};
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall"];

/** Names of the dependencies the lockfile records with an install script. */
function dependenciesWithInstallScripts(): string[] {
  const names = Object.entries(lock.packages)
    .filter(([location, entry]) => location.includes("node_modules/") && entry.hasInstallScript === true)
    .map(([location, entry]) => entry.name ?? location.slice(location.lastIndexOf("node_modules/") + "node_modules/".length));
  return [...new Set(names)].sort();
}

describe("install scripts", () => {
  it("the lockfile records the project's own install script, as npm install writes it", () => {
    const hasOwn = INSTALL_SCRIPTS.some((script) => pkg.scripts?.[script] !== undefined);
    expect(lock.packages[""]?.hasInstallScript === true).toBe(hasOwn);
  });

  it("every dependency's install script is allowed or denied in package.json's allowScripts", () => {
    const decided = pkg.allowScripts ?? {};
    const undecided = dependenciesWithInstallScripts().filter((name) => typeof decided[name] !== "boolean");
    expect(undecided, "add each to allowScripts (true: it needs its script; false: it does not) and say why in README 'Why each dependency'").toEqual([]);
  });

  it("allowScripts names only installed packages that have an install script, by name only", () => {
    const withScripts = new Set(dependenciesWithInstallScripts());
    for (const entry of Object.keys(pkg.allowScripts ?? {})) {
      expect(entry, "a pinned name@version never matches a lockfile without registry URLs").not.toMatch(/.@/);
      expect(withScripts.has(entry), `${entry} has no install script in package-lock.json: remove it from allowScripts`).toBe(true);
    }
  });
});
