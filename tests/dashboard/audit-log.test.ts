import { describe, expect, it } from "vitest";
import { actorGroups } from "@/components/audit/actor-options";
import { ACTION_GROUPS, actionLabel } from "@/components/audit/vocabulary";
import { sentenceOf, sentenceText, targetHref } from "@/components/audit/sentences";
import { AUDIT_ACTIONS as SERVER_ACTIONS } from "@/lib/domain/audit/record";
import type { AuditEvent } from "@/lib/client/audit";
import type { ApiKey } from "@/lib/client/keys";
import type { Member } from "@/lib/client/members";

/** The Audit log page's pure parts: its words for each action, where a target links, whom the actor filter offers. */

function entry(overrides: Partial<AuditEvent> = {}): AuditEvent {
  return {
    object: "audit_event",
    id: "aud_1",
    actor: { type: "user", id: "usr_1", display: "ana@example.com" },
    action: "api_key.created",
    target: { type: "api_key", id: "key_1" },
    details: {},
    ip: "203.0.113.7",
    created_at: "2026-03-04T10:00:00.000Z",
    ...overrides,
  };
}

function member(userId: string, email: string): Member {
  return { object: "member", id: `mem_${userId}`, user_id: userId, email, name: null, role: "admin", created_at: "2026-01-01T00:00:00.000Z" };
}

function key(id: string, name: string | null, revoked = false): ApiKey {
  return {
    object: "api_key",
    id,
    kind: "secret",
    name,
    prefix: "svc_live_",
    display: `svc_live_${id}…wxyz`,
    scopes: [],
    allowed_origins: [],
    last_used_at: null,
    created_at: "2026-01-01T00:00:00.000Z",
    revoked_at: revoked ? "2026-02-01T00:00:00.000Z" : null,
    created_by_user_id: null,
  };
}

describe("action words", () => {
  it("has words for every action the server records, and puts each in exactly one filter group", () => {
    for (const action of SERVER_ACTIONS) expect(actionLabel(action)).not.toBe(action);
    expect(actionLabel("api_key.created")).toBe("Created API key");
    const grouped = ACTION_GROUPS.flatMap((group) => group.actions);
    expect([...grouped].sort()).toEqual([...SERVER_ACTIONS].sort());
  });

  it("shows the code of an action the page has no words for yet, and still names its target", () => {
    expect(actionLabel("project.renamed" as AuditEvent["action"])).toBe("project.renamed");
    const parts = sentenceOf("p", entry({ action: "project.renamed" as AuditEvent["action"], target: { type: "project", id: "proj_1" } }));
    expect(sentenceText(parts)).toBe("ana@example.com project.renamed proj_1");
  });
});

describe("each entry as a sentence", () => {
  const say = (overrides: Partial<AuditEvent>) => sentenceText(sentenceOf("p", entry(overrides)));

  it("names a function secret by its name and links the function", () => {
    const rotated = entry({
      action: "function.secret_set",
      target: { type: "function", id: "fn_9" },
      details: { slug: "order-bot", name: "STRIPE_KEY", created: false },
    });
    const parts = sentenceOf("p", rotated);
    expect(sentenceText(parts)).toBe("ana@example.com rotated the secret STRIPE_KEY of function order-bot");
    expect(parts).toContainEqual({ kind: "name", text: "STRIPE_KEY" });
    expect(parts).toContainEqual({ kind: "target", text: "order-bot", href: "/projects/p/functions/fn_9" });
    expect(say({ ...rotated, details: { slug: "order-bot", name: "NEW", created: true } })).toBe("ana@example.com added the secret NEW to function order-bot");
  });

  it.each([
    [
      { action: "api_key.created", details: { name: "CI deploys", display: "svc_live_ab12…9xYz", via: "cli_login" } },
      "created the API key CI deploys through svc login",
    ],
    [
      { action: "member.role_changed", target: { type: "membership", id: "mem_1" }, details: { email: "bo@example.com", from: "developer", to: "admin" } },
      "changed the role of bo@example.com from developer to admin",
    ],
    [
      { action: "project.webhook_url_changed", target: { type: "project", id: "proj_1" }, details: { from: null, to: "https://hooks.example.com/in" } },
      "set the webhook URL to https://hooks.example.com/in",
    ],
    [
      { action: "project.webhook_secret_rotated", target: { type: "project", id: "proj_1" }, details: { previous_secret_expires_at: null } },
      "rotated the webhook signing secret",
    ],
    [
      { action: "channel.routing_changed", target: { type: "channel", id: "ch_1" }, details: { display_name: "Support", from: null, to: "FLOWS" } },
      "routed the channel Support to Flows instead of the project's routing",
    ],
    [
      { action: "thread.taken_over", target: { type: "thread_control", id: "thc_1" }, details: { from: "PROVIDER_AGENT", conversation_id: "conv_1" } },
      "took over a customer's thread from the business agent",
    ],
    [
      {
        action: "broadcast.sent",
        target: { type: "broadcast", id: "bc_1" },
        details: { name: "Spring sale", status: "SENDING", resumed: false, recipients: 1 },
      },
      "sent the broadcast Spring sale to 1 recipient",
    ],
    [
      { action: "connector.updated", target: { type: "business_agent_connector", id: "bacn_1" }, details: { name: "Shop", changed: [], secret_change: "set" } },
      "replaced the secret of connector Shop",
    ],
    [
      { action: "contact.erased", target: { type: "contact", id: "ct_1" }, details: { deleted_data_types: ["profile", "opt_ins"] } },
      "erased the personal data of a contact (profile, opt ins)",
    ],
  ] as [Partial<AuditEvent>, string][])("%o → %s", (overrides, sentence) => {
    expect(say(overrides)).toBe(`ana@example.com ${sentence}`);
  });

  it("falls back to words when an older entry lacks a detail", () => {
    expect(say({ action: "function.rolled_back", target: { type: "function", id: "fn_9" }, details: { slug: "quote" } })).toBe(
      "ana@example.com rolled back function quote to version ?",
    );
  });
});

describe("targetHref", () => {
  it("links each kind of target to its page, and a deleted or erased one nowhere", () => {
    const href = (overrides: Partial<AuditEvent>) => targetHref("p", entry(overrides));
    expect(href({})).toBe("/projects/p/keys");
    expect(href({ action: "config.applied", target: { type: "project", id: "proj_1" } })).toBe("/projects/p/config");
    expect(href({ action: "project.webhook_secret_rotated", target: { type: "project", id: "proj_1" } })).toBe("/projects/p");
    expect(href({ action: "flow.published", target: { type: "flow", id: "flow_1" } })).toBe("/projects/p/flows/flow_1");
    expect(href({ action: "broadcast.paused", target: { type: "broadcast", id: "bc_1" } })).toBe("/projects/p/broadcasts/bc_1");
    expect(href({ action: "thread.passed", target: { type: "thread_control", id: "thc_1" }, details: { conversation_id: "conv_1" } })).toBe(
      "/projects/p/inbox?c=conv_1",
    );
    expect(href({ action: "template.deleted", target: { type: "template", id: "tmpl_1" } })).toBeNull();
    expect(href({ action: "contact.erased", target: { type: "contact", id: "ct_1" } })).toBeNull();
  });
});

describe("actorGroups", () => {
  it("offers operators by email and every key (revoked ones marked) by their ids", () => {
    const groups = actorGroups([member("usr_b", "bo@example.com"), member("usr_a", "ana@example.com")], [key("k1", "CI"), key("k2", null, true)], [], "");
    expect(groups).toEqual([
      {
        label: "Operators",
        options: [
          { value: "usr_a", label: "ana@example.com" },
          { value: "usr_b", label: "bo@example.com" },
        ],
      },
      {
        label: "API keys",
        options: [
          { value: "k1", label: "CI (svc_live_k1…wxyz)" },
          { value: "k2", label: "Unnamed secret key (svc_live_k2…wxyz), revoked" },
        ],
      },
    ]);
  });

  it("adds actors only the entries know, once each, and never the system actor", () => {
    const entries = [
      entry({ actor: { type: "user", id: "usr_gone", display: "left@example.com" } }),
      entry({ id: "aud_2", actor: { type: "user", id: "usr_gone", display: "left@example.com" } }),
      entry({ id: "aud_3", actor: { type: "system", id: null, display: "svc CLI" } }),
      entry({ id: "aud_4", actor: { type: "user", id: "usr_a", display: "ana@example.com" } }),
    ];
    const groups = actorGroups([member("usr_a", "ana@example.com")], [], entries, "");
    expect(groups.map((group) => group.label)).toEqual(["Operators", "Others"]);
    expect(groups[1]!.options).toEqual([{ value: "usr_gone", label: "left@example.com" }]);
  });

  it("keeps a selected id from the URL that nobody knows, so the select can show it", () => {
    expect(actorGroups([], [], [], "key_unknown")).toEqual([{ label: "Others", options: [{ value: "key_unknown", label: "key_unknown" }] }]);
  });
});
