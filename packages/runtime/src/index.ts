export * from "./auth";
export { ConfigError, envSchema, parseConfig } from "./config";
export type { Config } from "./config";
export type { EventBus, HostEvents, RunFinished } from "./events";
export { DataDirLockedError, lockDataDir } from "./data-dir-lock";
export { createHost } from "./host";
export type { Host } from "./host";
export { getCurrentHost, setCurrentHost } from "./host-registry";
export { createHttpServer, listen } from "./http/server";
export { answerError, sendJson } from "./http/respond";
export { createLogger } from "./logger";
export type { Logger } from "./logger";
export { exampleFlow, seedFirstStart } from "./seed";
export { version } from "./version";
export type { LlmSettings } from "./agents";
export { HostError, type ErrorCode, errorCodes } from "./errors/codes";
export type { CredentialType } from "@switchyard/contracts/credentials";
export type { Vault } from "./secrets/vault";
// A program embedding the host passes its own trigger types to createHost (docs/extending.md).
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
