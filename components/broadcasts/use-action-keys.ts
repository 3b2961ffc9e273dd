"use client";

import { useState } from "react";
import { newIdempotencyKey } from "@/components/inbox/pending-send";
import { actionKeys } from "./model/action-key";

/** The component's Idempotency-Keys, one per operator action, kept across its retries (model/action-key.ts). */
export function useActionKeys() {
  const [keys] = useState(() => actionKeys(newIdempotencyKey));
  return keys;
}
