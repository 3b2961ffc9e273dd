import { defineRoute } from "@/lib/api/route";
import { IdParam, listOf } from "@/lib/api/schemas/common";
import { RegistrationIntent, RegistrationIntentCreateRequest, RegistrationIntentListQuery } from "@/lib/api/schemas/registration-intents";
import { createRegistrationIntent } from "@/lib/domain/registration-intents/create";
import { getRegistrationIntent, listRegistrationIntents } from "@/lib/domain/registration-intents/read";

const tag = "Registration intents";

export const registrationIntentRoutes = [
  defineRoute({
    method: "POST",
    path: "/registration-intents",
    operationId: "createRegistrationIntent",
    summary: "Mint a registration link for a customer",
    description:
      "Needs a secret key with `registrations:create`, or a publishable key (svc_pub_) in `x-svc-publishable-key` (never as Bearer), which mints for its own project. " +
      "Browsers may call it directly: CORS answers the origins the publishable key allows (all when its list is empty), the OPTIONS preflight included; " +
      "a publishable-key request from another origin is 403 origin_not_allowed. " +
      "The link opens the project's own PLATFORM_A number (mode live) or the shared sandbox (mode test) with a prefilled text holding the token; " +
      "the customer's message carrying the token before expires_at completes the intent: the contact gets reference_id = customer_reference and an active opt-in, " +
      "and on the sandbox joins the project (participant.joined).",
    tag,
    auth: "secret_or_publishable",
    scope: "registrations:create",
    audit: { exempt: "a customer's registration link: traffic, not configuration" },
    body: RegistrationIntentCreateRequest,
    response: RegistrationIntent,
    handler: ({ ctx, body }) => createRegistrationIntent(ctx, body),
  }),
  defineRoute({
    method: "GET",
    path: "/registration-intents",
    operationId: "listRegistrationIntents",
    summary: "List the project's registration intents, newest first",
    description: "Needs `projects:read`. Filter by status (as read: a PENDING intent past expires_at is EXPIRED) or customer_reference.",
    tag,
    scope: "projects:read",
    query: RegistrationIntentListQuery,
    response: listOf(RegistrationIntent, "RegistrationIntentList"),
    handler: ({ ctx, query }) => listRegistrationIntents(ctx, query),
  }),
  defineRoute({
    method: "GET",
    path: "/registration-intents/{id}",
    operationId: "getRegistrationIntent",
    summary: "Retrieve a registration intent",
    description: "Needs `projects:read`. Another project's intent is 404.",
    tag,
    scope: "projects:read",
    params: IdParam,
    response: RegistrationIntent,
    handler: ({ ctx, params }) => getRegistrationIntent(ctx, params.id),
  }),
];
