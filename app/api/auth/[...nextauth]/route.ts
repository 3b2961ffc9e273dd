import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/options";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Context = { params: Promise<{ nextauth: string[] }> };

// next-auth v4 reads the catch-all segments from `params`; Next 16 passes them as a promise.
async function handle(request: Request, context: Context): Promise<Response> {
  const handler = NextAuth(authOptions());
  return handler(request, { params: await context.params });
}

export { handle as GET, handle as POST };
