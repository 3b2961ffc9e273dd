import type { Route } from "./route";

/** Every served /api/v1 operation. The router, the OpenAPI document and the tests read this one list. */
const routes: Route[] = [];

export function registerRoutes(...added: Route[]): void {
  for (const route of added) {
    if (routes.some((r) => r.method === route.method && r.path === route.path)) {
      throw new Error(`Duplicate route ${route.method} ${route.path}`);
    }
    routes.push(route);
  }
}

export function registeredRoutes(): readonly Route[] {
  return routes;
}
