"use client";

import { AlertIcon, Button, CopyButton, Dialog } from "@/components/ui";
import type { CreatedApiKey } from "@/lib/client/keys";
import { ScopeSummary } from "./scope-summary";

/**
 * The only time a key's value is on screen. Every way out (Done, Escape, ×) drops it: the caller
 * clears the key from its state, and the list never had it. Focus opens on Copy, the one thing to do
 * here: Enter copies, where a focused Done would close the dialog and lose the key.
 */
export function KeyCreatedDialog({ created, onDone }: { created: CreatedApiKey | null; onDone: () => void }) {
  return (
    <Dialog
      open={created !== null}
      onClose={onDone}
      title="Copy your new key"
      description={created ? `${created.name ?? "Your key"} is ready.` : undefined}
      footer={
        <Button variant="primary" onClick={onDone}>
          Done
        </Button>
      }
    >
      {created && (
        <div className="space-y-4">
          <p className="flex items-start gap-2 rounded-md bg-amber-50 px-3 py-2.5 text-sm text-amber-900 ring-1 ring-amber-600/20 ring-inset">
            <AlertIcon className="mt-0.5 shrink-0 text-amber-600" />
            <span>
              <strong className="font-semibold">You won&apos;t be able to see this key again.</strong> Copy it now and store it somewhere safe, like your
              server&apos;s secret manager.
            </span>
          </p>
          <div className="flex items-center gap-2 rounded-md bg-slate-50 py-1 pr-1 pl-3 ring-1 ring-slate-200 ring-inset">
            <code data-testid="new-key-value" className="min-w-0 flex-1 overflow-x-auto py-1 font-mono text-[13px] break-all text-slate-900 select-all">
              {created.value}
            </code>
            <CopyButton value={created.value} label="API key" display="text" variant="secondary" dialogAutofocus />
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-[13px]">
            <dt className="text-slate-500">Type</dt>
            <dd className="text-slate-800">{created.kind === "secret" ? "Secret" : "Publishable"}</dd>
            {created.kind === "secret" ? (
              <>
                <dt className="text-slate-500">Permissions</dt>
                <dd className="text-slate-800">
                  <ScopeSummary scopes={created.scopes} />
                </dd>
              </>
            ) : (
              <>
                <dt className="text-slate-500">Allowed origins</dt>
                <dd className="font-mono text-[12px] break-all text-slate-800">{created.allowed_origins.join(", ") || "None yet"}</dd>
              </>
            )}
          </dl>
        </div>
      )}
    </Dialog>
  );
}
