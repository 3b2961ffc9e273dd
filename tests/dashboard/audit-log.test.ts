import { describe, expect, it } from "vitest";
import { actorGroups } from "@/components/audit/actor-options";
import { AUDIT_ACTIONS, actionLabel, targetView } from "@/components/audit/vocabulary";
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
  it("offers every action the server records, in its order, each with words", () => {
    expect(AUDIT_ACTIONS).toEqual([...SERVER_ACTIONS]);
    for (const action of AUDIT_ACTIONS) expect(actionLabel(action)).not.toBe(action);
    expect(actionLabel("api_key.created")).toBe("Created API key");
  });

  it("shows the code of an action the page has no words for yet", () => {
    expect(actionLabel("project.renamed" as AuditEvent["action"])).toBe("project.renamed");
  });
});

describe("targetView", () => {
  it("names a key by the name its entry recorded and links to the Keys page", () => {
    const view = targetView("proj 1", entry({ details: { name: "CI deploys", display: "svc_live_ab12…9xYz" } }));
    expect(view).toEqual({ label: "API key", name: "CI deploys", id: "key_1", href: "/projects/proj%201/keys" });
  });

  it("falls back to a key's display when it had no name", () => {
    expect(targetView("p", entry({ details: { name: null, display: "svc_live_ab12…9xYz" } })).name).toBe("svc_live_ab12…9xYz");
  });

  it("names a function by slug and version and links to its page", () => {
    const view = targetView(
      "p",
      entry({ action: "function.rolled_back", target: { type: "function", id: "fn_9" }, details: { slug: "quote", version_number: 3 } }),
    );
    expect(view).toEqual({ label: "Function", name: "quote v3", id: "fn_9", href: "/projects/p/functions/fn_9" });
  });

  it("sends an applied config to the Config page and a rotated secret to the Overview", () => {
    const project = { type: "project", id: "p" };
    expect(targetView("p", entry({ action: "config.applied", target: project })).href).toBe("/projects/p/config");
    expect(targetView("p", entry({ action: "project.webhook_secret_rotated", target: project }))).toMatchObject({
      label: "Webhook signing secret",
      href: "/projects/p",
    });
  });

  it("shows an unknown target type as words, without a link", () => {
    expect(targetView("p", entry({ target: { type: "phone_number", id: "pn_1" } }))).toEqual({ label: "phone number", name: null, id: "pn_1", href: null });
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
