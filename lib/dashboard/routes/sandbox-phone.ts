import { defineRoute } from "@/lib/api/route";
import { z } from "@/lib/api/zod";
import { IdParam } from "@/lib/api/schemas/common";
import { completeReceivedFlow, customerInbox, exchangeReceivedFlow, joinedTesters, receivedFlow, sendAsCustomer } from "@/lib/domain/sandbox-phone";

const CustomerAction = z
  .object({
    channel_id: z.string().min(1),
    from: z.string().trim().min(3).max(64),
    name: z.string().trim().min(1).max(100).optional(),
    type: z.enum(["text", "image", "video", "audio", "document", "location", "button_reply", "list_reply"]),
    text: z.string().min(1).max(4096).optional(),
    media: z
      .object({
        link: z.url().optional(),
        caption: z.string().max(1024).optional(),
        mime_type: z.string().optional(),
        filename: z.string().max(240).optional(),
      })
      .strict()
      .optional(),
    location: z
      .object({
        latitude: z.number().min(-90).max(90),
        longitude: z.number().min(-180).max(180),
        name: z.string().max(200).optional(),
        address: z.string().max(500).optional(),
      })
      .strict()
      .optional(),
    reply: z
      .object({ id: z.string().min(1).max(256), title: z.string().min(1).max(256) })
      .strict()
      .optional(),
    reply_to: z.string().min(1).optional(),
  })
  .strict()
  .superRefine((value, issues) => {
    const needs: Record<string, keyof typeof value> = { text: "text", location: "location", button_reply: "reply", list_reply: "reply" };
    const field = needs[value.type];
    if (field && value[field] === undefined) issues.addIssue({ code: "custom", path: [field], message: `Required for type ${value.type}.` });
  });

const Customer = {
  channel_id: z.string().min(1),
  from: z.string().trim().min(3).max(64),
};

const SimulatedCustomerMessage = z.object({
  object: z.literal("simulated_customer_message"),
  channel_id: z.string(),
  from: z.string(),
  provider_message_id: z.string(),
  webhook_status: z.number(),
});

const FlowExchange = z
  .object({
    ...Customer,
    flow_token: z.string().min(1).max(512),
    action: z.enum(["INIT", "BACK", "data_exchange"]),
    screen: z.string().min(1).max(200).optional(),
    data: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

const FlowCompletion = z
  .object({
    ...Customer,
    name: z.string().trim().min(1).max(100).optional(),
    flow_token: z.string().min(1).max(512),
    response: z.record(z.string(), z.unknown()),
  })
  .strict();

const tag = "Dashboard: sandbox phone";

export const sandboxPhoneRoutes = [
  defineRoute({
    method: "POST",
    path: "/sandbox/customer-messages",
    operationId: "dashboardActAsCustomer",
    summary: "Act as a customer: the simulator sends our provider endpoint a signed inbound webhook",
    tag,
    auth: "session",
    scope: "messages:send",
    audit: { exempt: "the sandbox phone: simulated customer traffic, changes no configuration" },
    idempotency: "off",
    body: CustomerAction,
    response: SimulatedCustomerMessage,
    handler: ({ ctx, body }) => sendAsCustomer(ctx, body),
  }),
  defineRoute({
    method: "GET",
    path: "/sandbox/inbox",
    operationId: "dashboardSimulatedInbox",
    summary: "What the business sent to a simulated customer on a channel, oldest first",
    tag,
    auth: "session",
    scope: "conversations:read",
    query: z.object(Customer),
    response: z.object({
      object: z.literal("list"),
      data: z.array(
        z.object({
          object: z.literal("simulated_business_message"),
          id: z.string(),
          type: z.string(),
          text: z.string().nullable(),
          status: z.string(),
          sent_at: z.string(),
          body: z.record(z.string(), z.unknown()),
        }),
      ),
      has_more: z.boolean(),
    }),
    handler: ({ ctx, query }) => customerInbox(ctx, query),
  }),
  defineRoute({
    method: "GET",
    path: "/sandbox/testers",
    operationId: "dashboardSandboxTesters",
    summary: "The project's sandbox testers (numbers that sent its join code), the latest to join first",
    tag,
    auth: "session",
    scope: "conversations:read",
    response: z.object({
      object: z.literal("list"),
      data: z.array(z.object({ object: z.literal("sandbox_tester"), phone: z.string(), joined_at: z.string() })),
      has_more: z.boolean(),
    }),
    handler: ({ ctx }) => joinedTesters(ctx),
  }),
  defineRoute({
    method: "GET",
    path: "/sandbox/flows/{id}",
    operationId: "dashboardSimulatedFlow",
    summary: "The Flow JSON of a flow the simulated customer received (by provider flow id), as the phone opens it",
    tag,
    auth: "session",
    scope: "conversations:read",
    params: IdParam,
    query: z.object(Customer),
    response: z.object({
      object: z.literal("simulated_flow"),
      id: z.string(),
      name: z.string(),
      status: z.string(),
      flow_json: z.record(z.string(), z.unknown()),
      has_endpoint: z.boolean(),
    }),
    handler: ({ ctx, params, query }) => receivedFlow(ctx, { ...query, id: params.id }),
  }),
  defineRoute({
    method: "POST",
    path: "/sandbox/flows/{id}/exchange",
    operationId: "dashboardSimulatedFlowExchange",
    summary: "As the received flow's customer, call its data endpoint (INIT, BACK or data_exchange) through the simulator",
    tag,
    auth: "session",
    scope: "messages:send",
    audit: { exempt: "the sandbox phone: simulated customer traffic, changes no configuration" },
    idempotency: "off",
    params: IdParam,
    body: FlowExchange,
    response: z.object({
      object: z.literal("simulated_flow_exchange"),
      endpoint_status: z.number(),
      response: z.record(z.string(), z.unknown()).nullable(),
      endpoint_error: z.string().nullable(),
    }),
    handler: ({ ctx, params, body }) => exchangeReceivedFlow(ctx, { ...body, id: params.id }),
  }),
  defineRoute({
    method: "POST",
    path: "/sandbox/flows/{id}/complete",
    operationId: "dashboardSimulatedFlowCompletion",
    summary: "As the received flow's customer, submit it: the simulator sends our provider endpoint the nfm_reply webhook",
    tag,
    auth: "session",
    scope: "messages:send",
    audit: { exempt: "the sandbox phone: simulated customer traffic, changes no configuration" },
    idempotency: "off",
    params: IdParam,
    body: FlowCompletion,
    response: SimulatedCustomerMessage,
    handler: ({ ctx, params, body }) => completeReceivedFlow(ctx, { ...body, id: params.id }),
  }),
];
