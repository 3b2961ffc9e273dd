/**
 * Sends a text message with the typed SDK (@svc/sdk) and prints its id and status.
 *
 *   SVC_API_KEY=svc_live_... TO=+14155550123 npx tsx examples/sdk-send-message.ts
 *
 * Environment:
 *   SVC_API_KEY  secret key with messages:write (and conversations:read for the sandbox lookup)
 *   SVC_API_URL  default http://localhost:3000/api/v1
 *   TO           recipient phone in E.164
 *   CHANNEL_ID   a dedicated channel to send from by `to`; unset: the shared sandbox, which only
 *                replies to joined testers, so the script finds TO's conversation and replies in it
 *   TEXT         default "Hello from the svc SDK"
 */
import { createSvcClient, paginate, SvcApiError, unwrap, type Schema } from "@svc/sdk";

const SANDBOX_CHANNEL_ID = "ch_sandbox";

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Set ${name} (see the comment at the top of examples/sdk-send-message.ts).`);
  return value;
}

async function main() {
  const client = createSvcClient({ apiKey: env("SVC_API_KEY"), ...(process.env.SVC_API_URL ? { baseUrl: process.env.SVC_API_URL } : {}) });
  const to = env("TO");
  const text = process.env.TEXT ?? "Hello from the svc SDK";
  const channelId = process.env.CHANNEL_ID;

  // Typed from the OpenAPI document: a misspelt field or a wrong value is a compile error.
  let body: Schema<"MessageSendRequest">;
  if (channelId) {
    body = { channel_id: channelId, to, text };
  } else {
    const digits = to.replace(/\D/g, "");
    let conversationId: string | null = null;
    for await (const conversation of paginate(client, "/conversations", { params: { query: { q: digits, limit: 100 } } })) {
      if (conversation.phone?.replace(/\D/g, "") === digits) {
        conversationId = conversation.id;
        break;
      }
    }
    if (!conversationId) throw new Error(`${to} has no conversation on the sandbox yet: they send "join <code>" to the sandbox number first.`);
    body = { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversationId, text };
  }

  // The client adds an Idempotency-Key and retries 429/503 with it; unwrap throws SvcApiError on 4xx/5xx.
  const message: Schema<"MessageSendResponse"> = await unwrap(client.POST("/messages", { body }));
  console.log(`message ${message.id} ${message.status} (conversation ${message.conversation_id}, idempotency key ${message.idempotency_key})`);
}

main().catch((error: unknown) => {
  if (SvcApiError.is(error)) {
    console.error(`svc API error ${error.status} ${error.code}: ${error.message} (request ${error.requestId ?? "?"})`);
    if (error.issues) console.error(error.issues);
  } else {
    console.error(error instanceof Error ? error.message : error);
  }
  process.exitCode = 1;
});
