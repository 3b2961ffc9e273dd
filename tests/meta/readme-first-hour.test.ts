import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Issue 32 item 19: README's set-up section names every page of a project's dashboard (the menu's
 * own labels, components/shell/nav-links.tsx), every page under app/(dashboard)/projects/[projectId]
 * is in that menu, and its production line says how a local webhook receiver is allowed.
 */
const root = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

/** The set-up section: from "## Set-up" to the next "## " heading. */
function setupSection(): string {
  const readme = read("README.md");
  const start = readme.indexOf("## Set-up");
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end);
}

/** The menu's entries, read from its source (label and segment of each NAV_ITEMS row). */
function menu(): Array<{ label: string; segment: string }> {
  const source = read("components/shell/nav-links.tsx");
  return [...source.matchAll(/\{ label: "([^"]+)", segment: "([^"]*)"/g)].map((m) => ({ label: m[1]!, segment: m[2]! }));
}

/** The first path segment of every page under a project ("" for the overview). */
function projectPages(): string[] {
  const base = path.join(root, "app/(dashboard)/projects/[projectId]");
  const segments = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name));
      else if (entry.name === "page.tsx") segments.add(path.relative(base, dir).split(path.sep)[0] ?? "");
    }
  };
  walk(base);
  return [...segments].sort();
}

describe("README, the first hour", () => {
  it("lists every page of the dashboard's menu, by the menu's own label", () => {
    const items = menu();
    expect(items.length).toBeGreaterThanOrEqual(15);
    const section = setupSection();
    for (const { label } of items) expect(section, label).toContain(`- **${label}**: `);
  });

  it("has every project page in that menu", () => {
    const inMenu = new Set(menu().map((item) => item.segment));
    for (const segment of projectPages()) expect(inMenu.has(segment), `app/(dashboard)/projects/[projectId]/${segment}`).toBe(true);
  });

  it("says on its production line how a receiver on localhost or a private network is allowed", () => {
    const line = setupSection()
      .split("\n")
      .find((text) => text.startsWith("Production: `npm run build && npm start`"));
    expect(line).toBeDefined();
    expect(line).toContain("SVC_ALLOW_PRIVATE_NETWORK=true");
    expect(line).toMatch(/localhost or a private network/);
  });
});
