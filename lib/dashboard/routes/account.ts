import { defineRoute } from "@/lib/api/route";
import { z } from "@/lib/api/zod";
import { SvcError } from "@/lib/errors";
import { acceptInvitation, describeInvitation, MIN_PASSWORD_LENGTH, operatorCount, operatorOverview, ROLES, setupFirstOwner } from "@/lib/domain/members";
import { requireUser } from "../session";
import { cliLoginRoutes } from "./cli-login";

const Password = z.string().min(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters.`).max(200);
const SetupBody = z
  .object({
    name: z.string().trim().min(1, "Enter your name.").max(100),
    email: z.email("Enter a valid email address.").max(320),
    password: Password,
    organization_name: z.string().trim().min(1, "Name your organization.").max(100),
  })
  .strict();
const AcceptBody = z.object({ name: z.string().trim().max(100).optional(), password: z.string().min(1).max(200) }).strict();
const TokenParam = z.object({ token: z.string() });
const User = z.object({ object: z.literal("user"), id: z.string(), email: z.string(), name: z.string().nullable() });

const tag = "Dashboard: account";

/**
 * The dashboard's calls outside any project: who am I, first-run set-up, and invitation links. No
 * API key and no project role applies (auth "none"): set-up and invitations are for people without
 * an account yet, and /me reads the session itself. They are not public API: /api/dashboard serves
 * them, never /api/v1, and the OpenAPI document does not list them. Not idempotent: set-up and
 * accepting happen once by their own rules (setup_complete, a used invitation is a 404).
 */
export const accountRoutes = [
  defineRoute({
    method: "GET",
    path: "/me",
    operationId: "dashboardMe",
    summary: "The signed-in operator, their organizations, roles and projects",
    tag,
    auth: "none",
    scope: null,
    response: z.object({
      object: z.literal("operator"),
      user: z.object({ id: z.string(), email: z.string(), name: z.string().nullable() }),
      organizations: z.array(
        z.object({ id: z.string(), name: z.string().nullable(), role: z.enum(ROLES), projects: z.array(z.object({ id: z.string(), name: z.string() })) }),
      ),
    }),
    handler: async ({ runtime, request }) => {
      const overview = await operatorOverview(runtime.database.db, await requireUser(request));
      if (!overview) throw new SvcError("unauthenticated", "Your account no longer exists. Sign in again.");
      return { object: "operator" as const, ...overview };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/setup",
    operationId: "dashboardSetupNeeded",
    summary: "Whether the first owner still has to be set up",
    tag,
    auth: "none",
    scope: null,
    response: z.object({ object: z.literal("setup"), needed: z.boolean() }),
    handler: async ({ runtime }) => ({ object: "setup" as const, needed: (await operatorCount(runtime.database.db)) === 0 }),
  }),
  defineRoute({
    method: "POST",
    path: "/setup",
    operationId: "dashboardSetup",
    summary: "Create the first owner, once",
    tag,
    auth: "none",
    scope: null,
    audit: { exempt: "first-run set-up: makes the first operator and organization, before any project exists to hold a log" },
    idempotency: "off",
    body: SetupBody,
    response: User,
    handler: async ({ runtime, body }) => {
      const user = await setupFirstOwner(
        runtime.database.db,
        { name: body.name, email: body.email, password: body.password, organizationName: body.organization_name },
        runtime.ports.clock.now(),
      );
      return { object: "user" as const, id: user.id, email: user.email, name: user.name };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/invitations/{token}",
    operationId: "dashboardDescribeInvitation",
    summary: "What an invitation link invites to",
    tag,
    auth: "none",
    scope: null,
    params: TokenParam,
    response: z.object({
      object: z.literal("invitation"),
      email: z.string(),
      role: z.enum(ROLES),
      organization_name: z.string().nullable(),
      expires_at: z.string(),
      existing_user: z.boolean(),
    }),
    handler: ({ runtime, params }) => describeInvitation(runtime.database.db, params.token, runtime.ports.clock.now()),
  }),
  defineRoute({
    method: "POST",
    path: "/invitations/{token}/accept",
    operationId: "dashboardAcceptInvitation",
    summary: "Accept an invitation: a new operator chooses a password, an existing one proves theirs",
    tag,
    auth: "none",
    scope: null,
    audit: {
      exempt: "the invitee joins: the invitation was audited (member.invited) in the project it was made from, and a membership belongs to no one project",
    },
    idempotency: "off",
    params: TokenParam,
    body: AcceptBody,
    response: User,
    handler: ({ runtime, params, body }) => acceptInvitation(runtime.database.db, params.token, body, runtime.ports.clock.now()),
  }),
  // The CLI login confirmation page (/cli/confirm), also outside any project.
  ...cliLoginRoutes,
];
