/** Shared by playwright.config.ts and the specs. */
export const E2E_PORT = Number(process.env.SVC_E2E_PORT || 3100);
/** Fixed bootstrap key (`svc_live_` + 32 base62): the server creates its demo project with exactly it. */
export const E2E_KEY = process.env.SVC_E2E_KEY || "svc_live_e2eFixedTestKey0123456789abcdefG";
export const API_VERSION = "2026-06-18";
/** The first-run dashboard owner the e2e server creates (SVC_ADMIN_EMAIL / SVC_ADMIN_PASSWORD). */
export const E2E_ADMIN_EMAIL = "owner@e2e.svc.test";
export const E2E_ADMIN_PASSWORD = "e2e-Owner-Password-1";
