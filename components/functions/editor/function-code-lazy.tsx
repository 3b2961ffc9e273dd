"use client";

import dynamic from "next/dynamic";

const load = () => import("./function-code-editor");

/**
 * Starts downloading Monaco for this page before the function's data has arrived (the page calls it
 * on mount); next/dynamic's import below then finds the chunks already loading or loaded.
 */
export function preloadFunctionCodeEditor(): void {
  void load();
}

/**
 * The function's Monaco editor in a chunk of its own (ssr: false, it needs the browser), never on the
 * list or any other page. It shows nothing while loading: the code area's plain text area stands in.
 */
export const LazyFunctionCodeEditor = dynamic(() => load().then((module) => module.FunctionCodeEditor), { ssr: false, loading: () => null });
