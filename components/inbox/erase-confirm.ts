/**
 * What unlocks "Erase personal data": the contact's phone number as the operator types it (spaces,
 * dashes and the "+" do not matter) or the word ERASE (for contacts known by a platform user id).
 */
export function confirmsErasure(typed: string, phone: string | null): boolean {
  const value = typed.trim();
  if (value === "ERASE") return true;
  const digits = value.replace(/[^\d]/g, "");
  return Boolean(phone && digits.length >= 6 && digits === phone.replace(/[^\d]/g, ""));
}
