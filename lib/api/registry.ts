import type { Route } from "./route";

/** Every served /api/v1 operation. The router, the OpenAPI document and the tests read this one list. */
const routes: Route[] = [];

export function registerRoutes(...added: Route[]): void {
  for (const route of added) {
    const index = routes.findIndex((r) => r.method === route.method && r.path === route.path);
    if (index === -1) {
      routes.push(route);
    } else if (routes[index]!.operationId === route.operationId) {
      // The dev server can evaluate the route modules again (another bundle, a reload): same operation, newer definition.
      routes[index] = route;
    } else {
      throw new Error(`Two operations on ${route.method} ${route.path}: ${routes[index]!.operationId} and ${route.operationId}`);
    }
  }
}

export function registeredRoutes(): readonly Route[] {
  return routes;
}
