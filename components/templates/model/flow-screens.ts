/**
 * The screen ids of a Flow JSON ({screens: [{id}, ...]}), in order: what a FLOW button with
 * flow_action navigate may open (navigate_screen). Anything that is not a screen with an id is skipped.
 */
export function flowScreenIds(flowJson: unknown): string[] {
  if (!flowJson || typeof flowJson !== "object") return [];
  const screens = (flowJson as { screens?: unknown }).screens;
  if (!Array.isArray(screens)) return [];
  return screens.flatMap((screen: unknown) => {
    const id = screen && typeof screen === "object" ? (screen as { id?: unknown }).id : undefined;
    return typeof id === "string" && id ? [id] : [];
  });
}
