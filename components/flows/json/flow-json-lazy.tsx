"use client";

import dynamic from "next/dynamic";
import { Skeleton, SkeletonGroup } from "@/components/ui";

/**
 * The Flow JSON editor, loaded only when its tab opens: Monaco and its workers are a chunk of their
 * own (ssr: false, it needs the browser), so the list page and every other page never load it.
 */
export const LazyFlowJsonEditor = dynamic(() => import("./flow-json-editor").then((module) => module.FlowJsonEditor), {
  ssr: false,
  loading: () => (
    <SkeletonGroup label="Loading the Flow JSON editor">
      <Skeleton className="h-[36rem] w-full" />
    </SkeletonGroup>
  ),
});
