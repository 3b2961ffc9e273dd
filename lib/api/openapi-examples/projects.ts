import type { OperationExamples } from "./types";
import { AT, CHANNEL, JOIN_CODE, PROJECT, PROJECT_ID, PROJECT_SUMMARY, SANDBOX_CHANNEL, SANDBOX_READINESS, WEBHOOK_URL, list } from "./fixtures";
import { REQUIREMENTS } from "@/lib/domain/readiness/requirements";

const NEW_PROJECT_ID = "proj_01jxq5a1b2c3d4e5f6g7h8j9k0";

export const projectExamples: Record<string, OperationExamples> = {
  listProjects: {
    response: { page: { summary: "The key's own project", value: list([PROJECT_SUMMARY]) } },
  },
  createProject: {
    request: {
      minimal: { summary: "Just a name (webhook set later)", value: { name: "Billing bot" } },
      withWebhook: {
        summary: "With a webhook and opt-in policy",
        value: {
          name: "Billing bot",
          description: "Invoices and payment reminders.",
          routing_mode: "EXTERNAL",
          require_opt_in: true,
          webhook_url: "https://billing.example.com/svc-events",
        },
      },
    },
    response: {
      created: {
        summary: "A new project on the shared sandbox (a signing secret is generated)",
        value: {
          ...PROJECT,
          id: NEW_PROJECT_ID,
          project_id: NEW_PROJECT_ID,
          name: "Billing bot",
          description: null,
          join_code: "3u2bxah7",
          webhook_url: null,
          channel_id: null,
          enrollment_channel: {
            ...SANDBOX_CHANNEL,
            routing_warning:
              "Your project routes EXTERNAL but it has no webhook_url: messages your sandbox testers send are recorded but delivered nowhere until a webhook URL is set.",
          },
          publish_readiness: SANDBOX_READINESS,
          participant_count: 0,
          created_at: AT,
          updated_at: AT,
          webhook_secret: "whsec_SWkxKIWhMdq3jsIq3+yg7ZaCxF10Asxe",
        },
      },
    },
  },
  getProject: {
    response: { project: { summary: "With its dedicated channel and signing secret", value: PROJECT } },
  },
  updateProject: {
    request: {
      webhook: { summary: "Point events at a new webhook URL", value: { webhook_url: WEBHOOK_URL } },
      optIn: { summary: "Stop requiring opt-in before the first message", value: { require_opt_in: false } },
    },
    response: { updated: { summary: "The updated project", value: PROJECT } },
    errors: {
      400: {
        badUrl: {
          summary: "A webhook URL that is not http(s)",
          value: { error: "invalid_request", message: "Invalid body: webhook_url.", issues: { webhook_url: ["Must be an http(s) URL."] } },
        },
      },
    },
  },
  rotateProjectWebhookSecret: {
    response: {
      rotated: {
        summary: "The new secret (the previous one keeps signing for 24 h)",
        value: { object: "project_webhook_secret", project_id: PROJECT_ID, webhook_secret: "whsec_0YJtU7JUuwuT+lHoNaaoLpMMub0ufL/a" },
      },
    },
  },
};

const readiness = {
  object: "project_readiness",
  project_id: PROJECT_ID,
  project_name: "Support bot",
  overall_status: "ready_with_warnings",
  // A project where every requirement applied (a dedicated PLATFORM_A channel forwarding to a webhook).
  requirements: [...REQUIREMENTS],
  sandbox_testable: true,
  production_inbound_ready: true,
  effective_channel: CHANNEL,
  sandbox_channel: SANDBOX_CHANNEL,
  dedicated_channel: CHANNEL,
  capabilities: {
    sandbox_messaging: {
      status: "not_applicable",
      message: `Your own number is connected, so the sandbox is optional. To test there: Send \`join ${JOIN_CODE}\` to +15550000000 from the phone you test with.`,
    },
    webhook: { status: "ready", message: `Inbound and events are sent, signed, to ${WEBHOOK_URL}.` },
    production_inbound: { status: "ready", message: `Inbound on your channel ${CHANNEL.id} (+14155550123) goes to your webhook ${WEBHOOK_URL}.` },
    flows_publishing: { status: "ready", message: `Flows can be published on your channel ${CHANNEL.id} (+14155550123).` },
    templates: { status: "ready", message: `Templates can be submitted on your channel ${CHANNEL.id} (+14155550123).` },
  },
  issues: [
    {
      code: "WEBHOOK_FAILING",
      severity: "warning",
      area: "webhook",
      title: "Recent webhook deliveries failed",
      message: `3 of the last 10 deliveries to ${WEBHOOK_URL} failed (last: HTTP 502). They are retried for up to 14 hours.`,
      next_steps: ["Check your endpoint's logs; GET /webhook-deliveries?status=failed lists the failed deliveries."],
    },
  ],
  next_steps: ["Check your endpoint's logs; GET /webhook-deliveries?status=failed lists the failed deliveries."],
};

export const readinessExamples: Record<string, OperationExamples> = {
  getReadiness: { response: { readyWithWarnings: { summary: "Live on a dedicated channel, with a webhook warning", value: readiness } } },
  getProjectReadiness: { response: { readyWithWarnings: { summary: "Live on a dedicated channel, with a webhook warning", value: readiness } } },
};
