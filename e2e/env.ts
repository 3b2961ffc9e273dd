/** Shared by playwright.config.ts and the specs. */
export const E2E_PORT = Number(process.env.SVC_E2E_PORT || 3100);
/** Fixed bootstrap key (`svc_live_` + 32 base62): the server creates its demo project with exactly it. */
export const E2E_KEY = process.env.SVC_E2E_KEY || "svc_live_e2eFixedTestKey0123456789abcdefG";
export const API_VERSION = "2026-06-18";
