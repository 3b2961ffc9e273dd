import type { Route } from "@/lib/api/route";
import { jsonRoutes } from "@/lib/api/registry";
import { keyRoutes } from "./keys";
import { memberRoutes } from "./members";
import { webhookStatsRoutes } from "./webhook-stats";
import { sandboxPhoneRoutes } from "./sandbox-phone";
import { functionStatsRoutes } from "./function-stats";
import { mcpToolRoutes } from "./mcp-tools";
import { flowChannelRoutes } from "./flow-channels";
import { inboxRoutes } from "./inbox";

export { accountRoutes } from "./account";

/** Operations only the dashboard serves (auth "session"); it also serves every /api/v1 operation. */
export const dashboardOnlyRoutes: Route[] = [
  ...keyRoutes,
  ...memberRoutes,
  ...webhookStatsRoutes,
  ...sandboxPhoneRoutes,
  ...functionStatsRoutes,
  ...mcpToolRoutes,
  ...flowChannelRoutes,
  ...inboxRoutes,
];

/**
 * What an operator reaches under /api/dashboard/projects/{id}: every JSON operation of /api/v1 (but
 * those about the calling key: `servedToOperators: false`) and the dashboard's own. Not the byte routes: the media download is authorized by its signed URL,
 * which the dashboard links to on /api/v1 like any client.
 */
export const dashboardProjectRoutes: readonly Route[] = [...jsonRoutes.filter((route) => route.servedToOperators), ...dashboardOnlyRoutes];
