/**
 * Whether this process is draining (it got SIGTERM: lib/server/shutdown.ts). Readiness answers 503
 * from then on, so a load balancer stops sending. On globalThis: Next.js may load this module in more
 * than one bundle (instrumentation and the route handlers), and both must see one flag.
 */
const KEY = Symbol.for("svc.draining");
const holder = globalThis as { [KEY]?: boolean };

export function isDraining(): boolean {
  return holder[KEY] === true;
}

export function setDraining(draining: boolean): void {
  holder[KEY] = draining;
  if (draining) drainingBegan();
}

const LISTENERS = Symbol.for("svc.draining.listeners");
const listeners = ((globalThis as { [LISTENERS]?: Set<() => void> })[LISTENERS] ??= new Set());

/**
 * Calls `listener` when draining begins (at once if it has): what a request that would otherwise stay
 * open (the dashboard's inbox event stream) uses to end itself, so the shutdown does not wait for it.
 * Returns the function that removes the listener.
 */
export function onDraining(listener: () => void): () => void {
  if (isDraining()) {
    listener();
    return () => {};
  }
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

function drainingBegan(): void {
  for (const listener of [...listeners]) {
    listeners.delete(listener);
    try {
      listener();
    } catch (error) {
      console.error("[shutdown] a draining listener failed:", error);
    }
  }
}
