import type { Example, OperationExamples } from "./types";
import { CONTACT_ID, PHONE, list } from "./fixtures";
import {
  FUNCTION_ID,
  VERSION_1_ID,
  VERSION_2_ID,
  TEST_INVOCATION_ID,
  SLUG,
  DEPLOYED_V1_AT,
  DEPLOYED_V2_AT,
  INVOKED_AT,
  SOURCE_V1,
  SOURCE_V2,
  IMPORT_SOURCE,
  SOURCE_TYPO,
  INPUT_SCHEMA,
  utf8Bytes,
  NEW_FUNCTION,
  FUNCTION,
  CONTACT,
  INVOKE_EVENT,
  TEST_EVENT,
  okRun,
  cpuLimitRun,
  invocation,
  version,
} from "./functions-fixtures";

/**
 * Examples of the hosted-function operations (the function of functions-fixtures.ts). Error messages
 * are the ones lib/domain/functions and the route wrapper produce; the deploy diagnostics and the Ajv
 * issues were copied from real deploys and invokes.
 */

/** getFunctionRow's 404 (notFound("function", idOrSlug)): an id or slug this project does not have. */
const functionNotFound: Record<string, Example> = {
  notFound: {
    summary: "No such function in this project (another project's id answers the same)",
    value: { error: "not_found", message: `No function with id '${SLUG}'.` },
  },
};

const notDeployed: Example = {
  summary: "Created but never deployed",
  value: {
    error: "function_not_deployed",
    message: `Function ${SLUG} has no deployed version. Deploy it first (POST /functions/${FUNCTION_ID}/deploy).`,
    function_id: FUNCTION_ID,
  },
};

const inactive: Example = {
  summary: "is_active is false",
  value: {
    error: "function_inactive",
    message: `Function ${SLUG} is inactive. Set is_active to true (PATCH /functions/${FUNCTION_ID}) to run it.`,
    function_id: FUNCTION_ID,
  },
};

/** Version 2 with one more log line, saved while version 2 is live. */
const SOURCE_DRAFT = SOURCE_V2.replace("  if (!res.ok)", "  console.log(`looking up order ${orderId}`);\n  if (!res.ok)");

const DRAFT = {
  object: "function_draft",
  function_id: FUNCTION_ID,
  source: SOURCE_DRAFT,
  bytes: utf8Bytes(SOURCE_DRAFT),
  base_version_id: VERSION_2_ID,
  updated_at: "2026-06-18T10:12:30.000Z",
};

const NO_DRAFT = { object: "function_draft", function_id: FUNCTION_ID, source: null, bytes: null, base_version_id: null, updated_at: null };

const secretNames = (names: string[]) => ({
  object: "function_secrets",
  function_id: FUNCTION_ID,
  data: names.map((name) => ({ name, updated_at: DEPLOYED_V1_AT })),
});

export const functionExamples: Record<string, OperationExamples> = {
  listFunctions: {
    response: {
      page: { summary: "Newest first; items carry no source", value: list([FUNCTION]) },
      filtered: { summary: "?is_active=false: none switched off", value: list([]) },
    },
  },
  createFunction: {
    request: { keyword: { summary: "A function written for KEYWORD automations", value: { slug: SLUG, name: "Order status", trigger_type: "KEYWORD" } } },
    response: { created: { summary: "No code yet: active_version_id null, script_name <slug>-v0", value: NEW_FUNCTION } },
    errors: {
      400: {
        invalidSlug: {
          summary: "A slug with capitals and a space",
          value: {
            error: "invalid_request",
            message: "Invalid body: slug.",
            issues: { slug: ["Lower-case letters, digits and '-', starting with a letter."] },
          },
        },
      },
      409: {
        functionConflict: {
          summary: "The slug is taken in this project",
          value: {
            error: "function_conflict",
            message: `A function with slug '${SLUG}' exists in this project. Choose another slug, or edit that function.`,
            issues: { slug: ["Already used in this project."] },
          },
        },
      },
    },
  },
  getFunction: {
    response: { live: { summary: "By id or slug: the active version's source included", value: { ...FUNCTION, source: SOURCE_V2 } } },
    errors: { 404: functionNotFound },
  },
  updateFunction: {
    request: {
      expose: { summary: "Expose as an MCP tool with its arguments' schema", value: { expose_as_mcp_tool: true, input_schema: INPUT_SCHEMA } },
      switchOff: { summary: "Stop every run (test, invoke, automations, tools)", value: { is_active: false } },
    },
    response: { updated: { summary: "Settings changed; the code did not", value: FUNCTION } },
    errors: {
      400: {
        notAnObject: {
          summary: "input_schema must describe an object",
          value: {
            error: "invalid_request",
            message: "input_schema must describe an object: invoke arguments are a JSON object.",
            issues: { input_schema: ['Use "type": "object".'] },
          },
        },
        invalidSchema: {
          summary: "Not a JSON Schema (2020-12)",
          value: {
            error: "invalid_request",
            message: "input_schema is not a valid JSON Schema: input_schema/required must be array.",
            issues: { input_schema: ["input_schema/required must be array"] },
          },
        },
      },
      404: functionNotFound,
    },
  },
  deleteFunction: {
    response: {
      deleted: { summary: "Its versions, secrets, KV and invocation log go with it", value: { object: "hosted_function", id: FUNCTION_ID, deleted: true } },
    },
    errors: {
      404: functionNotFound,
      409: {
        functionInUse: {
          summary: "An automation's run_function step names it",
          value: {
            error: "function_in_use",
            message: `Function ${SLUG} is used by automation 'order-status'. Remove its run_function steps (apply config without them) before deleting it.`,
            references: [{ type: "automation", id: "auto_01jd4m1x9q7rwb8k3n5t2v6yza", key: "order-status", name: "Order status" }],
          },
        },
      },
    },
  },
  deployFunction: {
    request: {
      typescript: { summary: "TypeScript: types are stripped at deploy", value: { source: SOURCE_V2 } },
      typo: { summary: "The same with a parenthesis missing", value: { source: SOURCE_TYPO } },
      importing: { summary: "A module that imports", value: { source: IMPORT_SOURCE } },
    },
    response: {
      ok: {
        summary: "Version 2 is live (script_name order-status-v2)",
        value: {
          object: "function_deploy",
          function_id: FUNCTION_ID,
          status: "ok",
          version_id: VERSION_2_ID,
          runtime: "PLAIN",
          bytes: utf8Bytes(SOURCE_V2),
          diagnostics: [],
        },
      },
      syntaxError: {
        summary: "Diagnostics at line:column of the source as sent; nothing changed (version 1 stays live)",
        value: {
          object: "function_deploy",
          function_id: FUNCTION_ID,
          status: "error",
          version_id: null,
          runtime: null,
          bytes: utf8Bytes(SOURCE_TYPO),
          diagnostics: ['9:39 Unexpected ";"'],
        },
      },
      importRefused: {
        summary: "Nothing may be imported",
        value: {
          object: "function_deploy",
          function_id: FUNCTION_ID,
          status: "error",
          version_id: null,
          runtime: null,
          bytes: utf8Bytes(IMPORT_SOURCE),
          diagnostics: ["1:28 'node:crypto' cannot be imported: hosted functions have no modules; use the globals (fetch, env, env.KV, crypto, URL...)."],
        },
      },
    },
    errors: {
      400: {
        sourceTooLong: {
          summary: "Source over 400,000 characters",
          value: { error: "invalid_request", message: "Invalid body: source.", issues: { source: ["Too big: expected string to have <=400000 characters"] } },
        },
      },
      404: functionNotFound,
    },
  },
  getFunctionDraft: {
    response: {
      saved: { summary: "Saved on top of version 2 (live), not deployed", value: DRAFT },
      none: { summary: "No draft saved: the live source is the code to edit", value: NO_DRAFT },
    },
    errors: { 404: functionNotFound },
  },
  saveFunctionDraft: {
    request: { draft: { summary: "Work in progress: the live version keeps running", value: { source: SOURCE_DRAFT } } },
    response: { saved: { summary: "The draft; active_version_id and every run are unchanged", value: DRAFT } },
    errors: {
      400: {
        sourceEmpty: {
          summary: "An empty draft (discard it with DELETE instead)",
          value: { error: "invalid_request", message: "Invalid body: source.", issues: { source: ["Too small: expected string to have >=1 characters"] } },
        },
      },
      404: functionNotFound,
    },
  },
  discardFunctionDraft: {
    response: { discarded: { summary: "No draft any more (the same answer when there was none)", value: NO_DRAFT } },
    errors: { 404: functionNotFound },
  },
  testFunction: {
    request: {
      message: { summary: "A message from a contact", value: { text: TEST_EVENT.text, contact: CONTACT } },
      textOnly: { summary: "No contact: the event's contact is null", value: { text: "Where is my order #1042?" } },
    },
    response: {
      ok: {
        summary: "The function got {type: message, trigger, text, contact, ...}",
        value: { object: "function_test", ...okRun, invocation_id: TEST_INVOCATION_ID },
      },
    },
    errors: {
      400: {
        textTooLong: {
          summary: "text over 4,000 characters",
          value: { error: "invalid_request", message: "Invalid body: text.", issues: { text: ["Too big: expected string to have <=4000 characters"] } },
        },
      },
      404: functionNotFound,
      422: { notDeployed, inactive },
    },
  },
  invokeFunction: {
    request: {
      withContact: { summary: "Arguments for the input_schema, about a known contact", value: { arguments: { order_id: "1042" }, contact_id: CONTACT_ID } },
      byPhone: { summary: "By phone number: no contact row needed", value: { arguments: { order_id: "1042" }, contact_phone: PHONE } },
    },
    response: {
      ok: { summary: "One fetch (sub_requests 1), one log line", value: { object: "function_invoke", ...okRun } },
      cpuLimit: {
        summary: "A run that failed: still 200, status error and the code; the run is in the invocation log",
        value: { object: "function_invoke", ...cpuLimitRun },
      },
    },
    errors: {
      400: {
        argumentsMismatch: {
          summary: "arguments that do not match input_schema: issues keyed arguments.<path>",
          value: {
            error: "invalid_request",
            message: "arguments do not match the function's input_schema.",
            issues: { "arguments.extra": ["must NOT have additional properties"], "arguments.order_id": ['must match pattern "^[0-9]+$"'] },
          },
        },
      },
      404: {
        ...functionNotFound,
        contactNotFound: {
          summary: "contact_id is not one of the project's contacts",
          value: { error: "not_found", message: "No contact with id 'ct_01jxq4zzzzzzzzzzzzzzzzzzzz'." },
        },
      },
      422: { notDeployed, inactive },
    },
  },
  listFunctionInvocations: {
    response: {
      page: {
        summary: "Every run, newest first (kept 7 days)",
        value: list([
          invocation(cpuLimitRun, "invoke", { type: "invoke", arguments: { order_id: "1043" }, contact: null }, "2026-06-18T09:51:02.000Z"),
          invocation(okRun, "invoke", INVOKE_EVENT, INVOKED_AT),
          invocation({ ...okRun, invocation_id: TEST_INVOCATION_ID }, "test", TEST_EVENT, "2026-06-18T08:42:05.000Z"),
        ]),
      },
      errorsOnly: {
        summary: "?status=error&event_type=invoke",
        value: list([invocation(cpuLimitRun, "invoke", { type: "invoke", arguments: { order_id: "1043" }, contact: null }, "2026-06-18T09:51:02.000Z")]),
      },
    },
    errors: { 404: functionNotFound },
  },
  listFunctionVersions: {
    response: {
      page: {
        summary: "Newest first; is_active marks the live one",
        value: list([version(VERSION_2_ID, 2, SOURCE_V2, DEPLOYED_V2_AT, true), version(VERSION_1_ID, 1, SOURCE_V1, DEPLOYED_V1_AT, false)]),
      },
      withSource: {
        summary: "?include=source",
        value: list([
          { ...version(VERSION_2_ID, 2, SOURCE_V2, DEPLOYED_V2_AT, true), source: SOURCE_V2 },
          { ...version(VERSION_1_ID, 1, SOURCE_V1, DEPLOYED_V1_AT, false), source: SOURCE_V1 },
        ]),
      },
    },
    errors: { 404: functionNotFound },
  },
  rollbackFunction: {
    request: { toVersion1: { summary: "Back to version 1", value: { version_id: VERSION_1_ID } } },
    response: {
      rolledBack: {
        summary: "The function, version 1 live again, with its source (last_deployed_at is unchanged)",
        value: { ...FUNCTION, active_version_id: VERSION_1_ID, script_name: `${SLUG}-v1`, source: SOURCE_V1, updated_at: "2026-06-18T10:05:00.000Z" },
      },
    },
    errors: {
      404: {
        ...functionNotFound,
        versionNotFound: {
          summary: "Not a version of this function",
          value: { error: "not_found", message: `No version of function ${FUNCTION_ID} with id 'ver_01jxq4zzzzzzzzzzzzzzzzzzzz'.` },
        },
      },
    },
  },
  listFunctionSecrets: {
    response: { names: { summary: "Names only, in name order: values are write-only", value: secretNames(["SHOP_TOKEN"]) } },
    errors: { 404: functionNotFound },
  },
  putFunctionSecrets: {
    request: {
      set: { summary: "Set (or replace) a secret", value: { SHOP_TOKEN: "shp_live_8Jq2vX0cRk4mN7pT" } },
      setAndDelete: { summary: "Set one and delete another in one change", value: { SHOP_TOKEN: "shp_live_3Lw9yB6dSf1hG5kQ", LEGACY_KEY: null } },
    },
    response: { names: { summary: "Every secret name after the change", value: secretNames(["SHOP_TOKEN"]) } },
    errors: {
      400: {
        badName: {
          summary: "A name that is not ^[A-Z][A-Z0-9_]{0,63}$",
          value: { error: "invalid_request", message: "Secret names match ^[A-Z][A-Z0-9_]{0,63}$.", issues: { shop_token: ["Not a valid secret name."] } },
        },
        tooMany: {
          summary: "More than 50 secrets after the change (nothing is changed)",
          value: {
            error: "invalid_request",
            message: "A function has at most 50 secrets; this change would leave 51.",
            issues: { secrets: ['Delete some (send "NAME": null) or keep at most 50.'] },
          },
        },
      },
      404: functionNotFound,
    },
  },
};
