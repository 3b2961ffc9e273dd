import type http from "node:http";
import type { Sql } from "postgres";

/** What a phase needs to drive one project of the running stack: its API, the simulator and the database. */
export interface BenchProject {
  base: string;
  /** The simulator's base URL (its own process, or the app's /api/simulator). */
  simulator: string;
  auth: Record<string, string>;
  agent: http.Agent;
  sql: Sql;
  projectId: string;
}
