import type { FunctionRuntimeName, FunctionTriggerType } from "@/lib/shared/functions";

/**
 * The code a function starts with before its first deploy: one per trigger type and runtime
 * (docs/spec/decisions.md "Hosted functions"). Each body computes `answer` from `event`, `ctx` and `env`
 * and the runtime wraps it: PLAIN returns it, WFP answers it as a JSON Response. Every starter
 * deploys as is and type-checks against typings.ts (tests/dashboard/functions-editor-model.test.ts).
 */

const BODIES: Record<FunctionTriggerType, string> = {
  KEYWORD: `// A KEYWORD automation matched this message (or a test sent it); an invoke passes arguments instead.
const text = event.type === "message" ? event.text : String(event.arguments.text ?? "");
const name = event.contact?.name ?? "there";
console.log(\`\${ctx.event_type} run for \${event.contact?.phone ?? "no contact"}: \${text}\`);
const answer = { text: \`Hi \${name}! You asked about "\${text}".\` };`,

  WELCOME: `// The contact's first message in the project. env.KV remembers who was greeted already.
const key = \`welcomed:\${event.contact?.id ?? event.contact?.phone ?? "anonymous"}\`;
const greetedBefore = (await env.KV.get(key)) !== null;
await env.KV.put(key, new Date().toISOString());
console.info(\`welcome for \${event.contact?.phone ?? "no contact"}, greeted before: \${greetedBefore}\`);
const name = event.contact?.name ? \`, \${event.contact.name}\` : "";
const answer = { text: greetedBefore ? "Welcome back!" : \`Welcome\${name}! Reply HELP to see what we can do.\` };`,

  ANY_MESSAGE: `// Every new message. fetch reaches public http(s) URLs; a secret set in the Secrets tab is env.NAME.
const text = event.type === "message" ? event.text : String(event.arguments.text ?? "");
const words = text.trim().split(/\\s+/).filter(Boolean).length;
console.log(\`\${ctx.function_slug} got \${words} word(s)\`);
// const response = await fetch("https://api.example.com/classify", {
//   method: "POST",
//   headers: { "content-type": "application/json", authorization: \`Bearer \${env.API_TOKEN}\` },
//   body: JSON.stringify({ text }),
// });
// const { label } = await response.json();
const answer = { text: \`Got it: \${words} word(s).\`, words };`,
};

const indent = (code: string, spaces: number) =>
  code
    .split("\n")
    .map((line) => (line ? " ".repeat(spaces) + line : line))
    .join("\n");

function plainStarter(body: string): string {
  return `/**
 * A PLAIN function: called with the event and ctx, it returns any JSON value (the run's result).
 * Test sends a message event; Invoke, agent and MCP tools send { type: "invoke", arguments }.
 */
export default async function (event: FunctionEvent, ctx: FunctionContext) {
${indent(body, 2)}
  return answer;
}
`;
}

function workerStarter(body: string): string {
  return `/**
 * A WFP (workers-style) function: fetch receives a POST Request whose JSON body is the event, and
 * its Response's JSON body is the run's result. env holds the secrets and env.KV.
 */
export default {
  async fetch(request, env, ctx) {
    const event: FunctionEvent = await request.json();
${indent(body, 4)}
    return Response.json(answer);
  },
} satisfies WorkerHandler;
`;
}

export function starterSource(trigger: FunctionTriggerType, runtime: FunctionRuntimeName): string {
  const body = BODIES[trigger];
  return runtime === "WFP" ? workerStarter(body) : plainStarter(body);
}

export const RUNTIME_LABELS: Record<FunctionRuntimeName, string> = {
  PLAIN: "Plain function",
  WFP: "Workers-style fetch",
};
