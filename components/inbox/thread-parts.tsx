import Link from "next/link";
import { ChevronRightIcon } from "@/components/ui/icons";
import { Skeleton, SkeletonGroup } from "@/components/ui/skeleton";

/** Phones show the list and the thread one at a time: this goes back to the list. */
export function BackLink({ href }: { href: string }) {
  return (
    <Link
      href={href}
      title="All conversations"
      className="-ml-1.5 inline-flex size-8 shrink-0 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600 md:hidden"
    >
      <ChevronRightIcon size={18} className="rotate-180" />
      <span className="sr-only">Conversations</span>
    </Link>
  );
}

export function ThreadSkeleton() {
  return (
    <SkeletonGroup label="Loading conversation" className="flex h-full flex-col">
      <div className="flex items-center gap-3 border-b border-slate-200 bg-white px-4 py-3">
        <Skeleton className="size-9 rounded-full!" />
        <div className="space-y-1.5">
          <Skeleton className="h-3.5 w-40" />
          <Skeleton className="h-3 w-28" />
        </div>
      </div>
      <MessagesSkeleton />
    </SkeletonGroup>
  );
}

export function MessagesSkeleton() {
  return (
    <div aria-hidden="true" className="flex-1 space-y-4 bg-slate-50 px-5 py-5">
      {["w-48", "ml-auto w-64", "w-40", "ml-auto w-56", "w-52"].map((width, index) => (
        <Skeleton key={index} className={`h-10 rounded-2xl! ${width}`} />
      ))}
    </div>
  );
}
