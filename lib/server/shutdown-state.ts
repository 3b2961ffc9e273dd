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
}
