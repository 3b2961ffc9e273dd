import { test as base, expect, type BrowserContext, type ConsoleMessage, type WebError } from "@playwright/test";

/**
 * Every spec imports `test` and `expect` from here, not from @playwright/test: a test fails at
 * teardown on any script error (`pageerror`, e.g. React's #418 hydration mismatch) or console error
 * in any page of its browser context, listing each one with the page it happened on.
 *
 * A spec that causes an error on purpose allows exactly that one, in that test:
 *
 *   consoleErrors.allowFailedResource(412, /\/broadcasts\/[^/]+\/send$/);
 *
 * An allowance that never matched fails the test too, so none outlives the behaviour it was for.
 */

export interface ConsoleErrors {
  /**
   * Allows the browser's own line for an answer the test provokes on purpose, "Failed to load
   * resource: the server responded with a status of <status>", for a URL matching `url` only.
   */
  allowFailedResource(status: number, url: RegExp): void;
  /** Watches a context the test made itself (browser.newContext()); the `context` fixture is watched already. */
  watch(context: BrowserContext): void;
}

interface Allowance {
  status: number;
  url: RegExp;
  matched: number;
}

const FAILED_RESOURCE = /^Failed to load resource: the server responded with a status of (\d{3})\b/;

function allowanceFor(allowances: readonly Allowance[], message: ConsoleMessage): Allowance | undefined {
  const failed = FAILED_RESOURCE.exec(message.text());
  if (!failed) return undefined;
  const status = Number(failed[1]);
  const url = message.location().url;
  return allowances.find((a) => a.status === status && a.url.test(url));
}

export const test = base.extend<{ consoleErrors: ConsoleErrors }>({
  consoleErrors: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this destructuring: it needs none.
    async ({}, use, testInfo) => {
      const problems: string[] = [];
      const allowances: Allowance[] = [];
      const watched = new WeakSet<BrowserContext>();

      const onConsole = (message: ConsoleMessage) => {
        if (message.type() !== "error") return;
        const allowance = allowanceFor(allowances, message);
        if (allowance) {
          allowance.matched += 1;
          return;
        }
        const where = message.location().url || message.page()?.url() || "(no page)";
        problems.push(`console error: ${message.text()} [${where}]`);
      };
      const onPageError = (error: WebError) => {
        problems.push(`page error: ${error.error().message} [${error.page()?.url() ?? "(no page)"}]`);
      };

      await use({
        allowFailedResource(status, url) {
          allowances.push({ status, url, matched: 0 });
        },
        watch(context) {
          if (watched.has(context)) return;
          watched.add(context);
          context.on("console", onConsole);
          context.on("weberror", onPageError);
        },
      });

      // Only a test that otherwise passed is judged on unused allowances: one that failed early never got there.
      const unused = testInfo.status === testInfo.expectedStatus ? allowances.filter((a) => a.matched === 0) : [];
      const lines = [
        ...problems,
        ...unused.map((a) => `allowed a ${a.status} for ${a.url} that never happened: remove the allowance, or make the test cause it again`),
      ];
      if (lines.length > 0) throw new Error(`${lines.length} browser error(s) in this test:\n  - ${lines.join("\n  - ")}`);
    },
    { auto: true },
  ],
  context: async ({ context, consoleErrors }, provide) => {
    consoleErrors.watch(context);
    await provide(context);
  },
});

export { expect };
// The types the specs use, so a spec has one import for Playwright.
export type { APIRequestContext, APIResponse, BrowserContext, Locator, Page } from "@playwright/test";
