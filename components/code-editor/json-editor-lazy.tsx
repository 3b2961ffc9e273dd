"use client";

import dynamic from "next/dynamic";
import { Skeleton, SkeletonGroup } from "@/components/ui";

/** The small JSON editor, in Monaco's own chunk (ssr: false: it needs the browser), loaded only where it shows. */
export const LazyJsonEditor = dynamic(() => import("./json-editor").then((module) => module.JsonEditor), {
  ssr: false,
  loading: () => (
    <SkeletonGroup label="Loading the JSON editor">
      <Skeleton className="h-40 w-full" />
    </SkeletonGroup>
  ),
});
