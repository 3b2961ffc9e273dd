/**
 * What `@monaco-editor/loader` is in this app's bundles: next.config.ts aliases the package to this
 * file. The real loader starts from a CDN default (jsDelivr, and for another monaco-editor
 * version than ours) and, when no Monaco was handed to it, injects that host's loader.js into the
 * page. The dashboard loads nothing from third-party hosts, so this stand-in knows one way only: the
 * Monaco that monaco-setup.ts imports and hands over with `loader.config({ monaco })`.
 * @monaco-editor/react calls `config`, `init` (a promise with `cancel()`, which then rejects with
 * `{ type: "cancelation" }`, the value the binding ignores) and `__getMonacoInstance`.
 */

type Monaco = object;

export interface BundledLoaderConfig {
  monaco?: Monaco;
  [option: string]: unknown;
}

export type CancelablePromise<T> = Promise<T> & { cancel: () => void };

export const CANCELATION = Object.freeze({ type: "cancelation", msg: "operation is manually canceled" });

export interface BundledMonacoLoader {
  config(options: BundledLoaderConfig): void;
  init(): CancelablePromise<Monaco>;
  __getMonacoInstance(): Monaco | null;
}

/** A loader of its own (tests make one each; the app uses the default export). */
export function createBundledMonacoLoader(): BundledMonacoLoader {
  let bundled: Monaco | null = null;
  return {
    config(options) {
      if (!options.monaco) {
        throw new Error(
          "This app bundles Monaco: hand it over as loader.config({ monaco }) (components/code-editor/monaco-setup.ts). Loading Monaco from paths or a CDN is not supported.",
        );
      }
      bundled = options.monaco;
    },
    init() {
      let canceled = false;
      const monaco = bundled;
      const ready = new Promise<Monaco>((resolve, reject) => {
        if (!monaco) {
          reject(new Error("The code editor has no Monaco: import components/code-editor/monaco-setup before an editor renders."));
          return;
        }
        // Settled a tick later, as the original is, so a cancel() in the same render still wins.
        queueMicrotask(() => (canceled ? reject(CANCELATION) : resolve(monaco)));
      });
      return Object.assign(ready, {
        cancel: () => {
          canceled = true;
        },
      });
    },
    __getMonacoInstance: () => bundled,
  };
}

const loader = createBundledMonacoLoader();

export default loader;
