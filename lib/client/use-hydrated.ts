"use client";

import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False in the server HTML and while React hydrates it, true once React runs. Auth forms keep their
 * submit button disabled until then: a click before hydration would otherwise do a native form submit
 * (credentials in a request the page cannot handle), and e2e clicks wait for the enabled button
 * instead of racing hydration. useCurrentProject reads no query data before then (see there).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
