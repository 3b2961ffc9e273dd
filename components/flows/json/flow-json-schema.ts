import type { JSONSchema } from "monaco-editor/languages/features/json/register";

/**
 * A JSON Schema of the provider's Flow JSON, for the editor's squiggles, hovers and completion while
 * typing. It describes the structure (screens, layout, components and their properties); the rules
 * that need the whole flow (navigation, payloads, limits) are the server's findings, shown as markers
 * after each save. Unknown components and properties stay allowed: the provider adds them over time.
 */

const text = (description: string): JSONSchema => ({ type: "string", description });
const dynamic = (description: string): JSONSchema => ({ description, anyOf: [{ type: "string" }, { type: "boolean" }, { type: "number" }] });

const action: JSONSchema = {
  type: "object",
  required: ["name"],
  properties: {
    name: { enum: ["navigate", "complete", "data_exchange", "update_data", "open_url"] },
    next: { type: "object", required: ["type", "name"], properties: { type: { const: "screen" }, name: text("The id of the screen to open.") } },
    payload: { type: "object", description: "Sent on: `${form.x}` reads an input of this screen, `${data.x}` the screen's data." },
  },
};

const options: JSONSchema = {
  description: "The choices: an array of {id, title} or a `${data.x}` reference.",
  anyOf: [
    {
      type: "array",
      items: {
        type: "object",
        required: ["id", "title"],
        properties: { id: { type: "string" }, title: { type: "string" }, description: { type: "string" }, enabled: { type: "boolean" } },
      },
    },
    { type: "string" },
  ],
};

const input = (extra: Record<string, JSONSchema>): Record<string, JSONSchema> => ({
  name: text("Unique on the screen: the key `${form.<name>}` reads."),
  label: text("Shown above the input (up to 20 characters)."),
  required: dynamic("Must the customer fill it in?"),
  "helper-text": text("A hint under the input."),
  visible: dynamic("false hides it."),
  ...extra,
});

const COMPONENTS: Record<string, Record<string, JSONSchema>> = {
  TextHeading: { text: text("Up to 80 characters.") },
  TextSubheading: { text: text("Up to 80 characters.") },
  TextBody: { text: text("Up to 4096 characters.") },
  TextCaption: { text: text("Up to 409 characters.") },
  TextInput: input({
    "input-type": { enum: ["text", "number", "email", "password", "passcode", "phone"] },
    "min-chars": dynamic("Fewest characters."),
    "max-chars": dynamic("Most characters."),
  }),
  TextArea: input({ "max-length": dynamic("Most characters.") }),
  DatePicker: input({ "min-date": text("YYYY-MM-DD"), "max-date": text("YYYY-MM-DD") }),
  Dropdown: input({ "data-source": options }),
  RadioButtonsGroup: input({ "data-source": options }),
  CheckboxGroup: input({ "data-source": options, "min-selected-items": dynamic("Fewest ticks."), "max-selected-items": dynamic("Most ticks.") }),
  OptIn: input({}),
  EmbeddedLink: { text: text("The link text."), "on-click-action": action },
  Footer: { label: text("The button (up to 35 characters)."), "on-click-action": action, enabled: dynamic("false greys it out.") },
};

const component: JSONSchema = {
  type: "object",
  required: ["type"],
  properties: {
    type: {
      type: "string",
      description: "The component.",
      enum: [
        ...Object.keys(COMPONENTS),
        "Form",
        "Image",
        "RichText",
        "If",
        "Switch",
        "NavigationList",
        "CalendarPicker",
        "PhotoPicker",
        "DocumentPicker",
        "ChipsSelector",
      ],
    },
  },
  allOf: Object.entries(COMPONENTS).map(([type, properties]) => ({ if: { properties: { type: { const: type } } }, then: { properties } })),
};

export const FLOW_JSON_SCHEMA: JSONSchema = {
  type: "object",
  required: ["version", "screens"],
  properties: {
    version: { type: "string", description: 'The Flow JSON version, e.g. "7.3".' },
    data_api_version: { type: "string", description: "Only for flows with a data endpoint." },
    routing_model: { type: "object", description: "Only for flows with a data endpoint: screen id → the screens it may open." },
    screens: {
      type: "array",
      minItems: 1,
      maxItems: 100,
      items: {
        type: "object",
        required: ["id", "layout"],
        properties: {
          id: { type: "string", pattern: "^[A-Za-z_]+$", description: "Letters and underscores; SUCCESS is reserved." },
          title: text("Shown in the top bar."),
          terminal: { type: "boolean", description: "The flow ends on this screen (its Footer completes)." },
          success: { type: "boolean" },
          refresh_on_back: { type: "boolean" },
          data: { type: "object", description: "What the screen receives: {name: {type, __example__}}." },
          layout: {
            type: "object",
            required: ["type", "children"],
            properties: { type: { const: "SingleColumnLayout" }, children: { type: "array", maxItems: 50, items: component } },
          },
        },
      },
    },
  },
};

/** The schema's id, and the model paths it applies to (each flow's editor model is `flow-json/<id>.flow.json`). */
export const FLOW_JSON_SCHEMA_URI = "https://schemas.svc.local/flow-json.json";
export const FLOW_JSON_FILE_MATCH = "*.flow.json";
