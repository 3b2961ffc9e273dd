import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { QueryState, RowLink } from "@/components/ui";
import { ApiError } from "@/lib/client/api";

type Page = { data: string[] };

/** Renders QueryState over a real react-query query whose cache holds `seed` (nothing: still pending). */
function renderStates(seed?: { data: Page } | { error: Error }): string {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, retryOnMount: false, staleTime: Infinity } } });
  const key = ["rows"];
  if (seed && "data" in seed) client.setQueryData(key, seed.data);
  if (seed && "error" in seed) client.getQueryCache().build(client, { queryKey: key }).setState({ status: "error", error: seed.error, fetchStatus: "idle" });
  function View() {
    const query = useQuery<Page>({ queryKey: key, queryFn: () => new Promise<Page>(() => {}) });
    return createElement(QueryState<Page>, {
      query,
      loadingLabel: "Loading rows",
      errorTitle: "Couldn't load rows",
      isEmpty: (page) => page.data.length === 0,
      empty: createElement("p", null, "No rows yet: add one."),
      children: (page) => createElement("ul", null, ...page.data.map((row) => createElement("li", { key: row }, row))),
    });
  }
  return renderToStaticMarkup(createElement(QueryClientProvider, { client }, createElement(View)));
}

describe("QueryState: the loading, failed and empty states a list page no longer writes itself", () => {
  it("announces loading while the query is pending", () => {
    const html = renderStates();
    expect(html).toContain('role="status"');
    expect(html).toContain("Loading rows…");
  });

  it("says what failed, the server's message and a retry", () => {
    const html = renderStates({ error: new ApiError({ status: 500, code: "internal_error", message: "The database did not answer.", requestId: "req_123" }) });
    expect(html).toContain('role="alert"');
    expect(html).toContain("Couldn&#x27;t load rows");
    expect(html).toContain("The database did not answer.");
    expect(html).toContain("Try again");
  });

  it("shows the empty state for an empty page and the content otherwise", () => {
    expect(renderStates({ data: { data: [] } })).toBe("<p>No rows yet: add one.</p>");
    expect(renderStates({ data: { data: ["a", "b"] } })).toBe("<ul><li>a</li><li>b</li></ul>");
  });
});

describe("RowLink: one stretched row link for every list", () => {
  it("is a link to the row's page that covers the row and keeps a focus ring", () => {
    const html = renderToStaticMarkup(createElement(RowLink, { href: "/projects/p/flows/f" }, "Order form"));
    expect(html).toMatch(/^<a [^>]*href="\/projects\/p\/flows\/f"/);
    expect(html).toContain("after:absolute after:inset-0");
    expect(html).toContain("focus-visible:after:outline-indigo-600");
  });

  it("is the only place that writes the stretched-link classes", () => {
    const root = path.resolve(import.meta.dirname, "../../components");
    const files = (function walk(dir: string): string[] {
      return readdirSync(dir).flatMap((name) => {
        const full = path.join(dir, name);
        return statSync(full).isDirectory() ? walk(full) : full.endsWith(".tsx") ? [full] : [];
      });
    })(root);
    const copies = files.filter((file) => readFileSync(file, "utf8").includes("after:absolute after:inset-0")).map((file) => path.relative(root, file));
    expect(copies).toEqual(["ui/row-link.tsx"]);
  });
});
