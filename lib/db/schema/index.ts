export * from "./tenancy";
export * from "./channels";
export * from "./api";
export * from "./messaging";
export * from "./webhooks";
export * from "./media";
