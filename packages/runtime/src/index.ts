export * from "./auth";
export { ConfigError, envSchema, parseConfig } from "./config";
export type { Config } from "./config";
export type { EventBus, HostEvents, RunFinished } from "./events";
export { DataDirLockedError, lockDataDir } from "./data-dir-lock";
export { createHost } from "./host";
export type { Host } from "./host";
export { getCurrentHost, setCurrentHost } from "./host-registry";
export { createHttpServer, listen } from "./http/server";
export { sendError, sendJson } from "./http/respond";
export { createLogger } from "./logger";
export type { Logger } from "./logger";
export { exampleFlow, seedFirstStart } from "./seed";
export { version } from "./version";
export { llmSettingsSchema } from "./agents";
export type { LlmSettings } from "./agents";
// The web app reads credential types through the runtime (#19: it may import @switchyard/contracts).
export { type CredentialType, credentialTypes } from "@switchyard/contracts/credentials";
export { CredentialError } from "./secrets/vault";
export { CronConfigError, describeSchedule } from "./triggers/cron";
export {
  defineTriggerListener,
  type ListenerMethods,
  type TriggerBinding,
  TriggerBindError,
  type TriggerHealthUpdate,
  type TriggerListener,
} from "./triggers/listener";
export type { TriggerHealth } from "./triggers/manager";
export type { HostExtensions } from "./triggers/registry";
// The web app checks an LLM key's host through the runtime (it does not bundle @switchyard/nodes).
export { assertCredentialHost } from "@switchyard/nodes";
export type { Vault } from "./secrets/vault";
