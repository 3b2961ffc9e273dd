import { expect, type APIRequestContext } from "@playwright/test";
import { E2E_KEY } from "../env";

export interface ProjectWire {
  id: string;
  join_code: string;
}

/**
 * A project of the spec's own, created with the bootstrap key: a spec that changes routing, automations
 * or channels does it there, never on the demo project other specs read.
 */
export async function ownProject(request: APIRequestContext, name: string): Promise<ProjectWire> {
  const created = await request.post("/api/v1/projects", { headers: { Authorization: `Bearer ${E2E_KEY}` }, data: { name } });
  expect(created.ok(), await created.text()).toBe(true);
  return (await created.json()) as ProjectWire;
}
