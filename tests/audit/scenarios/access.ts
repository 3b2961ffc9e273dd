import { dash } from "../../dashboard/support";
import { cliApi, startLogin } from "../../cli-login/support";
import { addOperator } from "../../dashboard/support";
import { ok, scenario, type Stage } from "./support";

/** Who may do what: keys, members, invitations, CLI logins. */

async function createKey(stage: Stage) {
  return ok(await stage.dash("POST", "/keys", { name: "Spare", scopes: ["*"] }), "create key").body as { id: string; value: string };
}

async function developer(stage: Stage) {
  const operator = await addOperator(stage.h.app, stage.seeded, "developer");
  const members = ok(await stage.dash("GET", "/members"), "members").body.data as { id: string; user_id: string }[];
  return members.find((m) => m.user_id === operator.userId)!.id;
}

async function invite(stage: Stage) {
  return ok(await stage.dash("POST", "/members", { email: `invitee-${stage.seeded.projectId}@acme.example`, role: "developer" }), "invite").body as {
    id: string;
  };
}

export const accessScenarios = [
  scenario({
    operationId: "dashboardCreateKey",
    proves: ["api_key.created"],
    actor: "user",
    act: (stage) => stage.dash("POST", "/keys", { name: "Deploys", scopes: ["functions:write"] }),
    secrets: (_, result) => [result.body.value.slice(-20)],
  }),
  scenario({
    operationId: "dashboardRevokeKey",
    proves: ["api_key.revoked"],
    actor: "user",
    setup: createKey,
    act: (stage, key) => stage.dash("POST", `/keys/${key.id}/revoke`),
    secrets: (key) => [key.value.slice(-20)],
  }),
  scenario({
    operationId: "dashboardInviteMember",
    proves: ["member.invited"],
    actor: "user",
    act: (stage) => stage.dash("POST", "/members", { email: "new.person@acme.example", role: "viewer" }),
    // The link's token is a credential: the entry names the invitation, never its URL.
    secrets: (_, result) => [result.body.url.split("/").pop()],
  }),
  scenario({
    operationId: "dashboardRevokeInvitation",
    proves: ["invitation.revoked"],
    actor: "user",
    setup: invite,
    act: (stage, invitation) => stage.dash("DELETE", `/invitations/${invitation.id}`),
  }),
  scenario({
    operationId: "dashboardUpdateMember",
    proves: ["member.role_changed"],
    actor: "user",
    setup: developer,
    act: (stage, membershipId) => stage.dash("PATCH", `/members/${membershipId}`, { role: "admin" }),
  }),
  scenario({
    operationId: "dashboardRemoveMember",
    proves: ["member.removed"],
    actor: "user",
    setup: developer,
    act: (stage, membershipId) => stage.dash("DELETE", `/members/${membershipId}`),
  }),
  scenario({
    operationId: "dashboardApproveCliCode",
    proves: ["api_key.created"],
    actor: "user",
    setup: (stage) => startLogin(stage.h.app, "audit-box"),
    act: (stage, login) =>
      dash(stage.h.app, "POST", `/cli/device-codes/${login.user_code}/approve`, {
        as: stage.owner,
        body: { project_id: stage.seeded.projectId, scopes: ["config:read"] },
      }),
  }),
  scenario({
    operationId: "cliLogout",
    proves: ["api_key.revoked"],
    actor: "api_key",
    setup: (stage) => stage.h.app.addKey(stage.seeded, ["*"]),
    act: (stage, key) => cliApi(stage.h.app, "POST", "/logout", { key }),
    secrets: (key) => [key.slice(-20)],
  }),
];
