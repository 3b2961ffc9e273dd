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

/** The shared sandbox channel (lib/domain/channels/sandbox.ts): its id and its provider sender id. */
export const SANDBOX_CHANNEL_ID = "ch_sandbox";
export const SANDBOX_SENDER_ID = "sandbox-phone-number-id";

/** A tester joins the project on the shared sandbox by texting its join code, as the README's curl block does. */
export async function joinSandboxTester(request: APIRequestContext, project: ProjectWire, tester: string): Promise<void> {
  const joined = await request.post("/api/simulator/customer/messages", {
    data: { platform: "PLATFORM_A", sender_id: SANDBOX_SENDER_ID, from: tester, type: "text", text: `join ${project.join_code}` },
  });
  expect(joined.ok(), await joined.text()).toBe(true);
}

export interface OwnNumber {
  id: string;
  displayName: string;
  phoneNumber: string;
}

/**
 * The project connects its own PLATFORM_A number through the dashboard's API (the signed-in operator's
 * `request`, e.g. page.request); the first one becomes the project's channel. `run` keeps its ids unique.
 */
export async function connectOwnNumber(request: APIRequestContext, projectId: string, run: string): Promise<OwnNumber> {
  const displayName = `Own line ${run}`;
  const phoneNumber = `+1415${String(Date.now()).slice(-7)}`;
  const connected = await request.post(`/api/dashboard/projects/${projectId}/channels`, {
    data: {
      platform: "PLATFORM_A",
      display_name: displayName,
      phone_number: phoneNumber,
      credentials: { phone_number_id: `pn_${run}`, business_account_id: `waba_${run}`, access_token: "e2e-access-token" },
    },
  });
  expect(connected.ok(), await connected.text()).toBe(true);
  return { id: ((await connected.json()) as { id: string }).id, displayName, phoneNumber };
}
