"use client";

import dynamic from "next/dynamic";
import { Skeleton, SkeletonGroup } from "@/components/ui";

/** The config editor in Monaco's own chunk (ssr: false: it needs the browser), loaded only on the Config page. */
export const LazyDocumentEditor = dynamic(() => import("./document-editor").then((module) => module.DocumentEditor), {
  ssr: false,
  loading: () => (
    <SkeletonGroup label="Loading the editor">
      <Skeleton className="h-[28rem] w-full" />
    </SkeletonGroup>
  ),
});
