import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { derivedKey } from "@/lib/crypto/secrets";
import { env } from "@/lib/config";
import { getRuntime } from "@/lib/server/runtime";
import { verifyOperatorPassword } from "@/lib/domain/members/operators";

const SESSION_MAX_AGE_SECONDS = 7 * 24 * 3600;

/**
 * next-auth's secret: NEXTAUTH_SECRET when set, else derived from the encryption key material, so a
 * fresh `npm run dev` and a production start without it both sign sessions with a stable secret that
 * is never committed (and rotates with SVC_ENCRYPTION_KEY).
 */
export function authSecret(): string {
  return process.env.NEXTAUTH_SECRET || derivedKey("next-auth").toString("base64url");
}

/** next-auth v4 configuration: email + password operators, JWT sessions carrying only the user id. */
export function authOptions(): NextAuthOptions {
  // next-auth builds its callback URLs and decides on `__Secure-` cookies from NEXTAUTH_URL; without
  // it, the address the product already knows itself by is the right one (https there → secure cookies).
  process.env.NEXTAUTH_URL ||= env().publicUrl;
  return {
    secret: authSecret(),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/sign-in" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials) {
          if (!credentials?.email || !credentials.password) return null;
          const runtime = await getRuntime();
          const user = await verifyOperatorPassword(runtime.database.db, credentials.email, credentials.password);
          return user ? { id: user.id, email: user.email, name: user.name } : null;
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) token.sub = user.id;
        return token;
      },
      session({ session, token }) {
        if (session.user && token.sub) (session.user as { id?: string }).id = token.sub;
        return session;
      },
    },
  };
}
