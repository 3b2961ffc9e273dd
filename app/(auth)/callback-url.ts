/**
 * Where to go after signing in. Only same-site paths: an absolute or protocol-relative URL in
 * ?callbackUrl= would turn the sign-in page into an open redirect.
 */
export function safeCallbackUrl(value: string | string[] | undefined | null): string {
  const candidate = Array.isArray(value) ? value[0] : value;
  if (!candidate || !candidate.startsWith("/") || candidate.startsWith("//") || candidate.startsWith("/\\")) return "/";
  // The auth pages themselves are never a useful destination.
  if (/^\/(sign-in|setup|invite)(\/|\?|$)/.test(candidate)) return "/";
  return candidate;
}
