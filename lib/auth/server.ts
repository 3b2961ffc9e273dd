import { getServerSession } from "next-auth";
import { authOptions } from "./options";

export interface SessionUser {
  id: string;
  email: string;
  name: string | null;
}

/** The signed-in operator in a server component or route handler, or null when signed out. */
export async function getSessionUser(): Promise<SessionUser | null> {
  const session = await getServerSession(authOptions());
  const user = session?.user as { id?: string; email?: string | null; name?: string | null } | undefined;
  if (!user?.id || !user.email) return null;
  return { id: user.id, email: user.email, name: user.name ?? null };
}
