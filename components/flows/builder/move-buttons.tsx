import { Button, ChevronDownIcon, TrashIcon } from "@/components/ui";

/** Up, down and remove for one item of a list; `name` completes each button's accessible name ("Move screen DETAILS up"). */
export function MoveButtons({
  name,
  index,
  count,
  onMove,
  onRemove,
  removeDisabledReason,
}: {
  name: string;
  index: number;
  count: number;
  onMove: (delta: -1 | 1) => void;
  onRemove: () => void;
  /** Set when removing is not allowed (e.g. the last screen): the button is disabled and says why. */
  removeDisabledReason?: string;
}) {
  return (
    <div className="flex items-center gap-0.5">
      <Button size="icon" variant="ghost" className="size-7" aria-label={`Move ${name} up`} disabled={index === 0} onClick={() => onMove(-1)}>
        <ChevronDownIcon className="rotate-180" />
      </Button>
      <Button size="icon" variant="ghost" className="size-7" aria-label={`Move ${name} down`} disabled={index === count - 1} onClick={() => onMove(1)}>
        <ChevronDownIcon />
      </Button>
      <Button
        size="icon"
        variant="ghost"
        className="size-7 text-slate-500 hover:text-red-700"
        aria-label={`Remove ${name}`}
        title={removeDisabledReason}
        disabled={Boolean(removeDisabledReason)}
        onClick={onRemove}
      >
        <TrashIcon />
      </Button>
    </div>
  );
}
