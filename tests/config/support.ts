import { eq } from "drizzle-orm";
import { automations, flows } from "@/lib/db/schema";
import type { TestApp } from "../support/app";

/** A one-screen draft that compiles without findings. */
export function simpleDraft(title = "Tell us") {
  return {
    entryScreenId: "ASK",
    screens: [{ id: "ASK", title, fields: [{ name: "answer", type: "text", label: "Answer", required: true }], submit_label: "Send" }],
  };
}

export function flowEntry(key: string, extra: Record<string, unknown> = {}) {
  return { key, name: `Flow ${key}`, draft: simpleDraft(), ...extra };
}

export function automationEntry(key: string, extra: Record<string, unknown> = {}) {
  return { key, name: `Automation ${key}`, trigger: { type: "KEYWORD", keywords: [key] }, steps: [{ send_reply: { text: `Hi from ${key}` } }], ...extra };
}

export function configDoc(parts: Record<string, unknown> = {}) {
  return { version: 1, flows: [], automations: [], ...parts };
}

export type DiffItem = { type: string; key: string; action: string; changes?: string[] };

/** The diff as "type key action" lines, for readable assertions. */
export function actions(diff: DiffItem[]): string[] {
  return diff.map((item) => `${item.type} ${item.key} ${item.action}`);
}

export function allUnchanged(diff: DiffItem[]): boolean {
  return diff.length > 0 && diff.every((item) => item.action === "unchanged");
}

export async function apply(app: TestApp, key: string, body: unknown) {
  return app.call("POST", "/config/apply", { key, body });
}

/** Every flow and automation row of the project, for "nothing changed" assertions. */
export async function snapshot(app: TestApp, projectId: string) {
  const flowRows = await app.db.select().from(flows).where(eq(flows.projectId, projectId));
  const automationRows = await app.db.select().from(automations).where(eq(automations.projectId, projectId));
  const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
  return { flows: flowRows.sort(byId), automations: automationRows.sort(byId) };
}
