import { eq } from "drizzle-orm";
import { flowDispatches, flowSubmissions } from "@/lib/db/schema";
import type { Harness } from "../messages/support";
import type { Seeded } from "../support/app";

/** A two-screen sign-up: details → preferences (terminal), one field of most types. */
export function signupDraft() {
  return {
    entryScreenId: "DETAILS",
    screens: [
      {
        id: "DETAILS",
        title: "Your details",
        body: "Tell us who you are.",
        fields: [
          { name: "full_name", type: "text", label: "Full name", required: true },
          { name: "email", type: "email", label: "Email", required: true },
          { name: "age", type: "number", label: "Age" },
        ],
        next: "PREFERENCES",
        submit_label: "Continue",
      },
      {
        id: "PREFERENCES",
        title: "Preferences",
        fields: [
          { name: "visit_date", type: "date", label: "Visit date", required: true },
          {
            name: "topic",
            type: "radio",
            label: "Topic",
            required: true,
            options: [
              { id: "sales", title: "Sales" },
              { id: "support", title: "Support" },
            ],
          },
          { name: "marketing", type: "optin", label: "Send me news" },
        ],
        submit_label: "Send",
      },
    ],
  };
}

export const VALID_RESPONSE = { full_name: "Ana Lima", email: "ana@example.com", age: "34", visit_date: "2026-12-01", topic: "support", marketing: true };

/** Creates a flow from the sign-up draft (or the given body) and returns its wire object. */
export async function createFlow(h: Harness, key: string, body: Record<string, unknown> = {}) {
  const res = await h.app.call("POST", "/flows", { key, body: { name: "Sign-up", draft: signupDraft(), ...body } });
  if (res.status !== 200) throw new Error(`create flow: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string } & Record<string, any>;
}

/** Publishes and runs the publish job (and the simulator's status webhook) to the end. */
export async function publish(h: Harness, key: string, id: string) {
  const res = await h.app.call("POST", `/flows/${id}/publish`, { key });
  if (res.status !== 200) throw new Error(`publish: ${res.status} ${JSON.stringify(res.body)}`);
  await h.settle(30);
  return (await h.app.call("GET", `/flows/${id}`, { key })).body as Record<string, any>;
}

/** A tester on the sandbox with an open window: their conversation id. */
export async function tester(h: Harness, seeded: Seeded, phone = "15551230001"): Promise<string> {
  await h.join(seeded.projectId, phone, "Ana");
  const list = await h.app.call("GET", "/conversations?channel_id=ch_sandbox&limit=100", { key: seeded.key });
  const conversation = (list.body.data as { id: string; phone: string | null }[]).find((c) => c.phone?.replace(/\D/g, "") === phone);
  if (!conversation) throw new Error("no tester conversation");
  return conversation.id;
}

export async function dispatchRow(h: Harness, token: string) {
  const [row] = await h.app.db.select().from(flowDispatches).where(eq(flowDispatches.flowToken, token));
  return row!;
}

export async function submissionsOf(h: Harness, flowId: string) {
  return h.app.db.select().from(flowSubmissions).where(eq(flowSubmissions.flowId, flowId));
}

/** The customer completes a flow on the sandbox (the provider's nfm_reply). */
export async function complete(h: Harness, phone: string, token: string, response: Record<string, unknown>) {
  await h.customer({ from: phone, type: "flow_completion", flow: { flow_token: token, response: { flow_token: token, ...response } } });
  await h.settle(30);
}
