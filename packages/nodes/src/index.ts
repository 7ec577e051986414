export { agentNode } from "./agent/agent";
export {
  type AmqpTarget,
  amqpServer,
  closeAmqp,
  amqpTarget,
  brokerMessage,
  connectAmqp,
} from "./amqp/client";
export { amqpPublishNode } from "./amqp/publish";
export { catalogue, createRegistry, nodeTypes, registry } from "./catalogue";
export { codeNode } from "./code/code";
export { MAX_CONCURRENT_SANDBOXES, runSandbox, type SandboxOptions, sandboxStats } from "./code/sandbox";
export { type ServerTarget, type ServerTargetContext, serverTarget } from "./connections/server";
export { setNode } from "./data/set";
export { transformNode } from "./data/transform";
export {
  defineNode,
  defineTrigger,
  formatIssues,
  type NodeSpec,
  parseConfig,
  type TriggerSpec,
} from "./define";
export { mysqlQueryNode } from "./database/mysql";
export { postgresQueryNode } from "./database/postgres";
export { sendEmailNode } from "./email/send";
export {
  isNodeError,
  NodeError,
  type NodeErrorCode,
  type NodeErrorOptions,
  NonRetryableError,
  notConfigured,
  toNodeError,
} from "./errors";
export { type CallDepthContext, callNode } from "./flow/call";
export { mergeNode } from "./flow/merge";
export { noopNode } from "./flow/noop";
export { splitNode } from "./flow/split";
export { stopNode } from "./flow/stop";
export { waitNode } from "./flow/wait";
export { placeholderNode } from "./import/placeholder";
export { assertCredentialHost } from "./http/allowed-hosts";
export { createHttpClient, type GuardedHttpClient, type HttpClientOptions } from "./http/client";
export { httpRequestNode } from "./http/request";
export { forbiddenHostName, forbiddenReason, isForbiddenAddress } from "./http/ssrf";
export { type ResolvedAddress, vetUrl } from "./http/vet";
export { ifNode } from "./logic/if";
export { connectMqtt, type MqttTarget, mqttServer, mqttTarget } from "./mqtt/client";
export { mqttPublishNode } from "./mqtt/publish";
export { MAX_SWITCH_CASES, switchNode } from "./logic/switch";
export { natsPublishNode } from "./messaging/nats-publish";
export { redisCommandNode } from "./redis/command";
export { type CronProblem, cronConfig, cronProblem, cronTrigger, isTimeZone } from "./triggers/cron";
export { emailTrigger } from "./triggers/email";
export { manualTrigger } from "./triggers/manual";
export { mqttTrigger } from "./triggers/mqtt";
export { amqpTrigger } from "./triggers/amqp";
export { errorTrigger } from "./triggers/error";
export { imapTrigger } from "./triggers/imap";
export { webhookSignatureHeader, webhookTrigger } from "./triggers/webhook";
export type { NodeArgs } from "./types";
export { createSharedConnections, DEFAULT_IDLE_MS } from "./util/connections";
export {
  forbiddenResponseHeaders,
  respondNode,
  responseHeaderAllowed,
  responseStatusAllowed,
} from "./webhook/respond";
