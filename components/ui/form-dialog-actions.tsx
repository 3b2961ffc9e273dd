import { Button } from "./button";

/** The footer of a form dialog: Cancel (disabled while submitting) and the submit button with its spinner. */
export function FormDialogActions({ onCancel, pending, submitLabel }: { onCancel: () => void; pending: boolean; submitLabel: string }) {
  return (
    <>
      <Button onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
      <Button type="submit" variant="primary" loading={pending}>
        {submitLabel}
      </Button>
    </>
  );
}
