import type { Route } from "@/lib/api/route";
import { keyRoutes } from "./keys";
import { memberRoutes } from "./members";
import { webhookStatsRoutes } from "./webhook-stats";
import { sandboxPhoneRoutes } from "./sandbox-phone";

/** Operations only the dashboard serves (auth "session"); it also serves every /api/v1 operation. */
export const dashboardOnlyRoutes: Route[] = [...keyRoutes, ...memberRoutes, ...webhookStatsRoutes, ...sandboxPhoneRoutes];
