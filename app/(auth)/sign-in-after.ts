import { signIn } from "next-auth/react";

/**
 * Signs in with credentials the operator has just chosen (setup, invitation). Returns false when the
 * account was created but signing in failed, so the page can send them to /sign-in instead of a dead end.
 */
export async function signInWith(email: string, password: string): Promise<boolean> {
  try {
    const result = await signIn("credentials", { email, password, redirect: false });
    return Boolean(result?.ok && !result.error);
  } catch {
    return false;
  }
}

export const MIN_PASSWORD_LENGTH = 10;

export function passwordProblem(password: string): string | undefined {
  if (!password) return "Choose a password.";
  if (password.length < MIN_PASSWORD_LENGTH) return `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  return undefined;
}

export function emailProblem(email: string): string | undefined {
  if (!email) return "Enter an email address.";
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return "Enter a valid email address, like you@company.com.";
  return undefined;
}
