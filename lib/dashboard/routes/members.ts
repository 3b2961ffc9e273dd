import { defineRoute } from "@/lib/api/route";
import { IdParam } from "@/lib/api/schemas/common";
import { z } from "@/lib/api/zod";
import { ROLES, inviteMember, listInvitations, listMembers, removeMember, revokeInvitation, updateMemberRole } from "@/lib/domain/members";

const Role = z.enum(ROLES);
const Member = z.object({
  object: z.literal("member"),
  id: z.string(),
  user_id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: Role,
  created_at: z.string(),
});
const Invitation = z.object({ object: z.literal("invitation"), id: z.string(), email: z.string(), role: Role, created_at: z.string(), expires_at: z.string() });
const list = <T extends z.ZodTypeAny>(item: T) => z.object({ object: z.literal("list"), data: z.array(item), has_more: z.boolean() });

const tag = "Dashboard: members";

export const memberRoutes = [
  defineRoute({
    method: "GET",
    path: "/members",
    operationId: "dashboardListMembers",
    summary: "Members of the project's organization",
    tag,
    auth: "session",
    scope: "members:read",
    response: list(Member),
    handler: ({ ctx }) => listMembers(ctx),
  }),
  defineRoute({
    method: "GET",
    path: "/invitations",
    operationId: "dashboardListInvitations",
    summary: "Open invitations of the organization",
    tag,
    auth: "session",
    scope: "members:read",
    response: list(Invitation),
    handler: ({ ctx }) => listInvitations(ctx),
  }),
  defineRoute({
    method: "POST",
    path: "/members",
    operationId: "dashboardInviteMember",
    summary: "Invite someone by email; the link is in this response only",
    tag,
    auth: "session",
    scope: "members:write",
    audit: ["member.invited"],
    idempotency: "off",
    body: z.object({ email: z.email("Enter a valid email address.").max(320), role: Role }).strict(),
    response: Invitation.extend({ url: z.string() }),
    handler: ({ ctx, body }) => inviteMember(ctx, body),
  }),
  defineRoute({
    method: "DELETE",
    path: "/invitations/{id}",
    operationId: "dashboardRevokeInvitation",
    summary: "Revoke an open invitation",
    tag,
    auth: "session",
    scope: "members:write",
    audit: ["invitation.revoked"],
    params: IdParam,
    response: Invitation,
    handler: ({ ctx, params }) => revokeInvitation(ctx, params.id),
  }),
  defineRoute({
    method: "PATCH",
    path: "/members/{id}",
    operationId: "dashboardUpdateMember",
    summary: "Change a member's role",
    tag,
    auth: "session",
    scope: "members:write",
    audit: ["member.role_changed"],
    params: IdParam,
    body: z.object({ role: Role }).strict(),
    response: Member,
    handler: ({ ctx, params, body }) => updateMemberRole(ctx, params.id, body.role),
  }),
  defineRoute({
    method: "DELETE",
    path: "/members/{id}",
    operationId: "dashboardRemoveMember",
    summary: "Remove a member from the organization",
    tag,
    auth: "session",
    scope: "members:write",
    audit: ["member.removed"],
    params: IdParam,
    response: Member.extend({ deleted: z.literal(true) }),
    handler: ({ ctx, params }) => removeMember(ctx, params.id),
  }),
];
