"use client";

import { useState } from "react";
import { Button, ConfirmDialog, RefreshIcon, Secret, WithheldSecret, useToast } from "@/components/ui";
import { useRotateWebhookSecret } from "@/lib/client/projects";

/**
 * The signing secret, masked until revealed. Rotating asks first (the old secret keeps signing for
 * 24 h, so nothing breaks at once) and then shows the new one revealed, ready to copy.
 * A viewer (no write access) never receives the secret from the server (docs/api-decisions.md
 * "Dashboard", the signing secret): they see it masked, with no reveal, copy or rotate.
 */
export function SigningSecret({
  projectId,
  secret,
  signingEnabled,
  canWrite,
}: {
  projectId: string;
  secret: string | null;
  signingEnabled: boolean;
  canWrite: boolean;
}) {
  const [confirming, setConfirming] = useState(false);
  const [rotatedSecret, setRotatedSecret] = useState<string | null>(null);
  const rotate = useRotateWebhookSecret(projectId);
  const toast = useToast();
  const turningOn = !signingEnabled;
  const justRotated = rotatedSecret !== null && rotatedSecret === secret;
  const visible = canWrite && secret !== null ? secret : null;

  const confirm = async () => {
    const result = await rotate.mutateAsync();
    setRotatedSecret(result.webhook_secret);
    toast.show({
      tone: "success",
      title: turningOn ? "Signing turned on" : "Signing secret rotated",
      description: turningOn ? "Deliveries now carry x-svc-signature." : "The previous secret keeps signing deliveries for 24 hours.",
    });
  };

  return (
    <div className="space-y-1.5">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-[13px] font-medium text-slate-800">Signing secret</h3>
        {canWrite && (
          <Button size="sm" variant="ghost" icon={<RefreshIcon />} onClick={() => setConfirming(true)}>
            {turningOn ? "Turn on signing" : "Rotate secret"}
          </Button>
        )}
      </div>
      {visible ? (
        // Remounted on rotation so the new secret starts revealed.
        <Secret key={visible} value={visible} label="signing secret" defaultRevealed={justRotated} />
      ) : signingEnabled ? (
        <WithheldSecret label="signing secret" prefix="whsec_" />
      ) : (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800 ring-1 ring-amber-600/20 ring-inset">
          Signing is off: deliveries carry no signature, so your endpoint can't tell them from forged requests.
        </p>
      )}
      {justRotated ? (
        <p role="status" className="text-xs leading-5 font-medium text-emerald-700">
          New secret. Put it in your endpoint's configuration; the previous one keeps signing alongside it for 24 hours.
        </p>
      ) : (
        <p className="text-xs leading-5 text-slate-500">
          Every delivery carries <code className="font-mono text-slate-700">x-svc-signature: sha256=…</code>, an HMAC of the raw body keyed by this secret. For
          24 hours after a rotation, <code className="font-mono text-slate-700">x-svc-signature-previous</code> carries the previous secret&apos;s.
          {signingEnabled && !visible && " Only developers, admins and owners can see or rotate the secret."}
        </p>
      )}
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        onConfirm={confirm}
        tone="primary"
        title={turningOn ? "Turn on webhook signing?" : "Rotate the signing secret?"}
        description={
          turningOn
            ? "A signing secret is created and every delivery is signed with it from now on."
            : "A new secret is created and signs every delivery from now on. The previous secret keeps signing alongside it for 24 hours, so you have a day to update your endpoint without dropping events."
        }
        confirmLabel={turningOn ? "Turn on signing" : "Rotate secret"}
      />
    </div>
  );
}
