import type { OperationExamples } from "./types";
import { CHANNEL, SANDBOX_CHANNEL, list } from "./fixtures";

const PLATFORM_B_CHANNEL_ID = "ch_01jxq5c3d4e5f6g7h8j9k0m1n2";

export const channelExamples: Record<string, OperationExamples> = {
  listChannels: {
    response: { page: { summary: "The shared sandbox and one dedicated channel", value: list([CHANNEL, SANDBOX_CHANNEL]) } },
  },
  createChannel: {
    request: {
      platformA: {
        summary: "PLATFORM_A (Cloud API) phone number",
        value: {
          platform: "PLATFORM_A",
          display_name: "Acme Support",
          phone_number: "+14155550123",
          routing_mode: "EXTERNAL",
          credentials: { phone_number_id: "109876543210", business_account_id: "203040506070", access_token: "EAAGm0PX4ZCpsBA..." },
        },
      },
      platformB: {
        summary: "PLATFORM_B account",
        value: { platform: "PLATFORM_B", display_name: "Acme on B", credentials: { account_id: "17841400000000000", access_token: "IGQVJ..." } },
      },
    },
    response: {
      connected: {
        summary: "Connected; publish readiness waits for the provider's account status",
        value: {
          ...CHANNEL,
          publish_readiness: {
            mode: "dedicated",
            can_publish_flows: true,
            can_submit_templates: false,
            business_verification_status: null,
            account_review_status: null,
            phone_number_status: null,
            blockers: ["META_ACCOUNT_STATUS_UNKNOWN", "PAYMENT_STATUS_UNKNOWN"],
          },
        },
      },
      platformB: {
        summary: "A PLATFORM_B channel",
        value: {
          ...CHANNEL,
          id: PLATFORM_B_CHANNEL_ID,
          channel_id: PLATFORM_B_CHANNEL_ID,
          platform: "PLATFORM_B",
          display_name: "Acme on B",
          phone_number: null,
          publish_readiness: null,
        },
      },
    },
    errors: {
      409: {
        alreadyConnected: {
          summary: "The provider number is already a channel",
          value: {
            error: "conflict",
            message: "This phone_number_id is already connected as a channel.",
            issues: { "credentials.phone_number_id": ["Already connected."] },
          },
        },
      },
    },
  },
  getChannel: {
    response: { channel: { summary: "A dedicated PLATFORM_A channel", value: CHANNEL } },
  },
  updateChannel: {
    request: {
      flows: { summary: "Route inbound to Flows", value: { routing_mode: "FLOWS" } },
      follow: { summary: "Follow the project's routing (how a channel routes AGENT)", value: { routing_mode: null } },
    },
    response: {
      routed: {
        summary: "Now routed to Flows while the project forwards to its webhook: routing_warning explains the clash",
        value: {
          ...CHANNEL,
          routing_mode: "FLOWS",
          routing_warning:
            "This channel routes FLOWS (native automations) but the project forwards to its webhook (EXTERNAL): inbound messages on this channel are not forwarded to the webhook; only the automations answer them, and a message no automation matches is recorded and gets no answer.",
        },
      },
      following: {
        summary: "Following an AGENT project whose agent is not on yet: routing_warning says where messages go meanwhile",
        value: {
          ...CHANNEL,
          routing_mode: null,
          routing_warning:
            "This channel routes AGENT (the routing of the project, which it follows) but this channel has no ACTIVE business agent of the project: inbound messages on this channel are forwarded to the webhook instead. Turn the agent on for it on the Agent page (POST /business-agents).",
        },
      },
    },
  },
  // DELETE /channels/{id} (scope channels:write), added beside this work in issue 12.
  deleteChannel: {
    response: {
      disconnected: {
        summary: "The channel, now disconnected",
        value: {
          ...CHANNEL,
          status: "disconnected",
          routing_warning:
            "This channel is disconnected: inbound messages on it are acknowledged to the provider but not stored, and nothing can be sent through it. Connect the number again (POST /channels) to use it.",
          publish_readiness: { ...CHANNEL.publish_readiness, can_publish_flows: false, can_submit_templates: false, blockers: ["CHANNEL_NOT_CONNECTED"] },
        },
      },
    },
    errors: {
      422: {
        sandbox: {
          summary: "The shared sandbox cannot be disconnected",
          value: {
            error: "unprocessable",
            message:
              "The shared sandbox serves every project and cannot be disconnected. To stop its inbound reaching your webhook, change the project's routing_mode (PATCH /projects/{id}); only dedicated channels (POST /channels) can be disconnected.",
            channel_id: "ch_sandbox",
          },
        },
      },
    },
  },
};
