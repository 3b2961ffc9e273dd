/**
 * Runs once when a Next.js server starts (lib/server/register-node.ts says what). Next compiles this
 * file for the Edge runtime too: the import sits inside the NEXT_RUNTIME test, which the compiler
 * replaces with a constant, so the Edge build drops it with its Node-only modules.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { registerNode } = await import("@/lib/server/register-node");
    await registerNode();
  }
}
