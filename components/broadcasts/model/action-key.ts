/**
 * One Idempotency-Key per operator action, the same one again when the operator retries that action
 * after a failure or a lost answer. The API replays a completed request with the same key and body,
 * and refuses the same key with another body (409): so a changed body, or a new action after a
 * success, gets a new key.
 */
export interface ActionKeys {
  /** The key for doing `action` with `body` now. */
  keyFor(action: string, body: unknown): string;
  /** The action's answer arrived: its next attempt is a new action. */
  settled(action: string): void;
}

export function actionKeys(newKey: () => string): ActionKeys {
  const open = new Map<string, { body: string; key: string }>();
  return {
    keyFor(action, body) {
      const text = JSON.stringify(body ?? null);
      const current = open.get(action);
      if (current && current.body === text) return current.key;
      const key = newKey();
      open.set(action, { body: text, key });
      return key;
    },
    settled(action) {
      open.delete(action);
    },
  };
}
