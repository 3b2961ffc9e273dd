"use client";

import dynamic from "next/dynamic";
import { Skeleton, SkeletonGroup } from "@/components/ui";

/**
 * The function's code editor in a chunk of its own: Monaco, the TypeScript service and their workers
 * load only on this page (ssr: false, they need the browser), never on the list or any other page.
 */
export const LazyFunctionCodeEditor = dynamic(() => import("./function-code-editor").then((module) => module.FunctionCodeEditor), {
  ssr: false,
  loading: () => (
    <SkeletonGroup label="Loading the code editor">
      <Skeleton className="h-[32rem] w-full" />
    </SkeletonGroup>
  ),
});
