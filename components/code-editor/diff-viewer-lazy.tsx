"use client";

import dynamic from "next/dynamic";
import { Skeleton, SkeletonGroup } from "@/components/ui";

/** The diff viewer in Monaco's own chunk (ssr: false: it needs the browser), loaded when a dialog first shows one. */
export const LazyDiffViewer = dynamic(() => import("./diff-viewer").then((module) => module.DiffViewer), {
  ssr: false,
  loading: () => (
    <SkeletonGroup label="Loading the changes">
      <Skeleton className="h-96 w-full" />
    </SkeletonGroup>
  ),
});
