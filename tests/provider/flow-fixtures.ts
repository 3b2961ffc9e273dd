/** Flow JSON documents for the Flows API tests: one the provider accepts, and ways to break it. */
export function validFlowJson(): Record<string, unknown> {
  return {
    version: "7.3",
    screens: [
      {
        id: "WELCOME",
        title: "Book a visit",
        layout: {
          type: "SingleColumnLayout",
          children: [
            { type: "TextHeading", text: "When suits you?" },
            { type: "TextInput", name: "name", label: "Your name", required: true },
            {
              type: "Footer",
              label: "Next",
              "on-click-action": { name: "navigate", next: { type: "screen", name: "DONE" }, payload: { name: "${form.name}" } },
            },
          ],
        },
      },
      {
        id: "DONE",
        title: "All set",
        terminal: true,
        data: { name: { type: "string", __example__: "Ada" } },
        layout: {
          type: "SingleColumnLayout",
          children: [
            { type: "TextBody", text: "Thanks, we will confirm shortly." },
            { type: "Footer", label: "Finish", "on-click-action": { name: "complete", payload: { name: "${data.name}" } } },
          ],
        },
      },
    ],
  };
}

/** The valid document with its first screen's footer pointing at a screen that does not exist. */
export function brokenFlowJson(): Record<string, unknown> {
  const json = validFlowJson();
  const screens = json.screens as { layout: { children: Record<string, unknown>[] } }[];
  screens[0]!.layout.children[2] = { type: "Footer", label: "Next", "on-click-action": { name: "navigate", next: { type: "screen", name: "NOWHERE" } } };
  return json;
}
