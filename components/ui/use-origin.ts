"use client";

import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/** This server's origin as the browser reaches it (for URLs a page shows to copy); a placeholder during server rendering. */
export function useOrigin(): string {
  return useSyncExternalStore(
    noSubscription,
    () => window.location.origin,
    () => "https://svc.example.com",
  );
}
