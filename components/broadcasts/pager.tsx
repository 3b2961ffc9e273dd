import { Button } from "@/components/ui";

/** Previous / Next under a paged table. */
export function Pager({
  label,
  page,
  hasPrevious,
  hasNext,
  onPrevious,
  onNext,
  loading,
}: {
  label: string;
  page: number;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
  loading?: boolean;
}) {
  if (!hasPrevious && !hasNext) return null;
  return (
    <nav aria-label={label} className="flex items-center justify-end gap-2 text-sm text-slate-600">
      <span>Page {page}</span>
      <Button size="sm" onClick={onPrevious} disabled={!hasPrevious}>
        Previous
      </Button>
      <Button size="sm" onClick={onNext} disabled={!hasNext} loading={loading}>
        Next
      </Button>
    </nav>
  );
}
