import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createBundledMonacoLoader, CANCELATION } from "@/components/code-editor/bundled-monaco-loader";
import nextConfig from "@/next.config";
import { findCdnReferences, scanForCdnReferences } from "@/scripts/bundle-offline";

/**
 * The browser bundle names no public CDN (issue 32 item 18). CI runs scripts/check-bundle-offline.ts
 * on the real build; these check its matcher, and that the module Turbopack bundles for
 * `@monaco-editor/loader` (the one that carried jsdelivr) holds no CDN address.
 */
const root = path.resolve(import.meta.dirname, "../..");

describe("findCdnReferences", () => {
  it("names the CDN host with the text around it", () => {
    const chunk = 'isInitialized:!1,config:{paths:{vs:"https://cdn.jsdelivr.net/npm/monaco-editor@0.55.1/min/vs"}}';
    const [reference, ...others] = findCdnReferences(chunk);
    expect(others).toEqual([]);
    expect(reference?.host).toBe("cdn.jsdelivr.net");
    expect(reference?.excerpt).toContain("paths:{vs:");
  });

  it("finds unpkg, cdnjs and font hosts, with or without a scheme", () => {
    const hosts = findCdnReferences('a("//unpkg.com/x"); b="https://cdnjs.cloudflare.com/ajax"; @import url(fonts.googleapis.com/css2)').map((r) => r.host);
    expect(hosts).toEqual(["unpkg.com", "cdnjs.cloudflare.com", "fonts.googleapis.com"]);
  });

  it("leaves other hosts that only contain a CDN's name alone", () => {
    expect(findCdnReferences("https://myunpkg.com/a https://esm.shop/b https://developer.mozilla.org/docs")).toEqual([]);
  });
});

describe("scanForCdnReferences", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("reports the file in a nested chunk folder, and nothing for a clean one", () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-bundle-offline-"));
    fs.mkdirSync(path.join(dir, "chunks", "app"), { recursive: true });
    fs.writeFileSync(path.join(dir, "chunks", "clean.js"), "console.log('https://developer.mozilla.org')");
    fs.writeFileSync(path.join(dir, "chunks", "app", "dirty.js"), "load('https://unpkg.com/monaco-editor/min/vs/loader.js')");
    expect(scanForCdnReferences(dir).map((r) => [path.relative(dir!, r.file), r.host])).toEqual([[path.join("chunks", "app", "dirty.js"), "unpkg.com"]]);
  });
});

describe("the Monaco loader the dashboard bundles", () => {
  /** What Turbopack bundles for the specifier: next.config.ts's alias, or the package's own ES build. */
  function bundledFiles(specifier: string): string[] {
    const alias = nextConfig.turbopack?.resolveAlias?.[specifier];
    if (typeof alias === "string") return [path.resolve(root, alias)];
    const packageDir = path.join(root, "node_modules", specifier, "lib", "es");
    return fs
      .readdirSync(packageDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name));
  }

  it("holds no CDN address (@monaco-editor/loader's own default is jsdelivr)", () => {
    const found = bundledFiles("@monaco-editor/loader").flatMap((file) =>
      findCdnReferences(fs.readFileSync(file, "utf8")).map((r) => `${path.relative(root, file)}: ${r.host}`),
    );
    expect(found).toEqual([]);
  });

  it("hands @monaco-editor/react the Monaco it was given, and honours cancel()", async () => {
    const loader = createBundledMonacoLoader();
    const monaco = { editor: {} };
    expect(loader.__getMonacoInstance()).toBeNull();
    loader.config({ monaco });
    await expect(loader.init()).resolves.toBe(monaco);
    expect(loader.__getMonacoInstance()).toBe(monaco);
    const canceled = loader.init();
    canceled.cancel();
    await expect(canceled).rejects.toBe(CANCELATION);
  });

  it("refuses to load Monaco from anywhere else, saying what to do", async () => {
    const loader = createBundledMonacoLoader();
    await expect(loader.init()).rejects.toThrow(/import components\/code-editor\/monaco-setup/);
    expect(() => loader.config({ paths: { vs: "https://cdn.jsdelivr.net/npm/monaco-editor/min/vs" } })).toThrow(/bundles Monaco/);
  });
});
