import type { OperationExamples } from "./types";
import { list } from "./fixtures";
import {
  CONFIG_KEY,
  DRAFT,
  DRAFT_WITH_TYPO,
  FLOW,
  FLOW_CREATED,
  FLOW_ES,
  FLOW_ES_ID,
  FLOW_ID,
  FLOW_JSON,
  FLOW_JSON_ES,
  FLOW_PUBLISH_FAILED,
  TYPO_FINDINGS,
} from "./flows-fixtures";
import { flowSendExamples } from "./flows-send";

const EDITED_AT = "2026-06-18T10:12:54.000Z";
const FBTRACE_ID = "AbXq3nU7pT1yQk9ZrW2sVeL";

/** Someone changed the published flow: customers keep opening version 1 until the next publish. */
const FLOW_EDITED = {
  ...FLOW,
  description: "Service and day, then contact details. Asks for a phone number too.",
  has_unpublished_changes: true,
  updated_at: EDITED_AT,
};
const FLOW_DEPRECATED = { ...FLOW, status: "DEPRECATED", meta_status: "DEPRECATED", last_synced_at: EDITED_AT, updated_at: EDITED_AT };

const flowConflict = {
  summary: "Another flow of the group already has this locale",
  value: {
    error: "flow_conflict",
    message: `A flow with config_key '${CONFIG_KEY}' and locale en exists in this project. Change the locale, or edit that flow.`,
    issues: { locale: ["Already used with this config_key."] },
  },
};

const deprecatedConflict = {
  summary: "A DEPRECATED flow cannot change",
  value: {
    error: "conflict",
    message: `Flow ${FLOW_ID} is DEPRECATED and can no longer change. Create a new flow: it may take this flow's config_key and locale.`,
    flow_id: FLOW_ID,
  },
};

/** 502 provider_error: the provider's failure, as a refused send carries it (Message.failure). */
function providerError(summary: string, failure: Record<string, unknown>) {
  return {
    summary,
    value: {
      error: "provider_error",
      message: `The provider refused or did not answer: ${failure.summary as string}`,
      retryable: false,
      failure: { provider: "provider", title: null, fbtrace_id: FBTRACE_ID, occurred_at: EDITED_AT, ...failure },
    },
  };
}

export const flowExamples: Record<string, OperationExamples> = {
  listFlows: {
    response: {
      group: {
        summary: "?config_key=book-appointment: every locale variant of the group",
        value: list([FLOW_ES, FLOW]),
      },
      page: {
        summary: "Newest first, across groups",
        value: list([FLOW_PUBLISH_FAILED, FLOW_ES, FLOW], true),
      },
    },
  },
  createFlow: {
    request: {
      draft: {
        summary: "From a draft: two screens, compiled to Flow JSON 7.3",
        value: { name: "Book an appointment", description: "Service and day, then contact details.", config_key: CONFIG_KEY, locale: "en", draft: DRAFT },
      },
      flowJson: {
        summary: "The Spanish variant of the group, given as Flow JSON",
        value: { name: "Reserva una cita", config_key: CONFIG_KEY, locale: "es", flow_json: FLOW_JSON_ES },
      },
      workInProgress: {
        summary: "A draft with a typo in next: stored with its findings",
        value: { name: "Book an appointment", config_key: "book-appointment-wip", draft: DRAFT_WITH_TYPO },
      },
    },
    response: {
      created: { summary: "Compiled and clean: ready to publish", value: FLOW_CREATED },
      withFindings: {
        summary: "Stored with validation_errors (pointers into the draft); publishing answers 422 until they are fixed",
        value: {
          ...FLOW_CREATED,
          id: "flow_01jxq4t1w3y5a7c9e1g3j5m7p9",
          config_key: "book-appointment-wip",
          locale: null,
          description: null,
          validation_errors: TYPO_FINDINGS,
          field_schema: null,
        },
      },
    },
    errors: { 409: { flowConflict } },
  },
  getFlow: {
    response: {
      published: { summary: "Version 1 is live", value: FLOW },
      withIncludes: { summary: "?include=flow_json,draft: the compiled Flow JSON and the saved draft", value: { ...FLOW, flow_json: FLOW_JSON, draft: DRAFT } },
      publishFailed: {
        summary: "PUBLISH_FAILED: the provider's validation errors, status unchanged",
        value: FLOW_PUBLISH_FAILED,
      },
    },
  },
  updateFlow: {
    request: {
      details: { summary: "Change the description", value: { description: FLOW_EDITED.description } },
      draft: {
        summary: "Save a new draft (validated and compiled again)",
        value: {
          draft: {
            ...DRAFT,
            screens: [
              DRAFT.screens[0]!,
              { ...DRAFT.screens[1]!, fields: [...DRAFT.screens[1]!.fields, { name: "phone", type: "phone", label: "Phone", required: false }] },
            ],
          },
        },
      },
    },
    response: {
      edited: { summary: "A PUBLISHED flow edited: sends stay on version 1 until the next publish", value: FLOW_EDITED },
    },
    errors: { 409: { flowConflict, deprecated: deprecatedConflict } },
  },
  deleteFlow: {
    response: { deleted: { summary: "A flow that was never published", value: { object: "flow", id: "flow_01jxq4t1w3y5a7c9e1g3j5m7p9", deleted: true } } },
    errors: {
      409: {
        flowPublished: {
          summary: "The flow was published: deprecate it instead",
          value: {
            error: "flow_published",
            message: `Flow ${FLOW_ID} has been published, so customers may still open it. Deprecate it instead (POST /flows/${FLOW_ID}/deprecate).`,
            flow_id: FLOW_ID,
          },
        },
      },
    },
  },
  publishFlow: {
    response: {
      publishing: {
        summary: "First publish: PUBLISHING now, PUBLISHED (or PUBLISH_FAILED) when the job settles",
        value: { ...FLOW_CREATED, meta_status: "PUBLISHING", updated_at: "2026-06-17T14:06:09.000Z" },
      },
      republishing: {
        summary: "Publishing an edit: version 1 stays sendable while version 2 is being published",
        value: { ...FLOW_EDITED, meta_status: "PUBLISHING", updated_at: "2026-06-18T10:13:20.000Z" },
      },
    },
    errors: {
      409: {
        deprecated: {
          summary: "A DEPRECATED flow",
          value: { error: "conflict", message: `Flow ${FLOW_ID} is DEPRECATED; create a new flow instead.`, flow_id: FLOW_ID },
        },
      },
      412: {
        channelNotReady: {
          summary: "The project's channel cannot publish Flows yet",
          value: {
            error: "channel_not_ready",
            message: "Channel ch_01jxq4n2t8e5r7w9y1a3c5e7g9 cannot publish Flows yet: see blockers (GET /readiness explains each).",
            channel_id: "ch_01jxq4n2t8e5r7w9y1a3c5e7g9",
            blockers: ["PHONE_NOT_CONNECTED", "PAYMENT_STATUS_UNKNOWN"],
          },
        },
      },
      422: {
        flowInvalid: {
          summary: "Our checks found errors: fix them and save first",
          value: {
            error: "flow_invalid",
            message: "Flow flow_01jxq4t1w3y5a7c9e1g3j5m7p9 has 2 validation error(s): fix them and save, then publish.",
            flow_id: "flow_01jxq4t1w3y5a7c9e1g3j5m7p9",
            validation_errors: TYPO_FINDINGS,
          },
        },
      },
    },
  },
  refreshFlow: {
    response: {
      synced: { summary: "The provider still reports PUBLISHED", value: { ...FLOW, last_synced_at: EDITED_AT, updated_at: EDITED_AT } },
      blocked: {
        summary: "The provider blocked the flow: meta_status follows and flow.status is emitted; sends answer 422 until it is PUBLISHED again",
        value: { ...FLOW, meta_status: "BLOCKED", last_synced_at: EDITED_AT, updated_at: EDITED_AT },
      },
    },
    errors: {
      409: {
        neverPublished: {
          summary: "Nothing to ask the provider about",
          value: {
            error: "conflict",
            message: `Flow ${FLOW_ID} was never published, so the provider has nothing to report. Publish it first.`,
            flow_id: FLOW_ID,
          },
        },
      },
      502: {
        tokenExpired: providerError("The channel's access token expired", {
          summary: "Error validating access token: Session has expired.",
          code: 190,
          subcode: 463,
          type: "OAuthException",
          message: "Error validating access token: Session has expired.",
          http_status: 401,
        }),
      },
    },
  },
  deprecateFlow: {
    response: { deprecated: { summary: "No longer sendable; its (config_key, locale) is free for a successor", value: FLOW_DEPRECATED } },
    errors: {
      409: {
        notPublished: {
          summary: "Only a PUBLISHED flow can be deprecated",
          value: {
            error: "conflict",
            message: `Only a PUBLISHED flow can be deprecated; flow ${FLOW_ES_ID} is DRAFT.`,
            flow_id: FLOW_ES_ID,
            status: "DRAFT",
          },
        },
      },
      502: {
        alreadyDeprecated: providerError("The provider flow was already deprecated in the provider's own tools", {
          summary: "(#139003) Flow is already deprecated: This Flow is already DEPRECATED.",
          code: 139003,
          subcode: null,
          type: "OAuthException",
          title: "Flow is already deprecated",
          message: "(#139003) Flow is already deprecated",
          http_status: 400,
        }),
      },
    },
  },
  ...flowSendExamples,
};
