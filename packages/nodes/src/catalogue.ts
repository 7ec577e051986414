import { type CatalogueEntry, catalogueEntry } from "@switchyard/contracts/catalogue";
import type { AnyNodeType, NodeRegistry } from "@switchyard/engine";
import { z } from "zod";
import { agentNode } from "./agent/agent";
import { amqpPublishNode } from "./amqp/publish";
import { codeNode } from "./code/code";
import { setNode } from "./data/set";
import { transformNode } from "./data/transform";
import { mysqlQueryNode } from "./database/mysql";
import { postgresQueryNode } from "./database/postgres";
import { sendEmailNode } from "./email/send";
import { callNode } from "./flow/call";
import { mergeNode } from "./flow/merge";
import { noopNode } from "./flow/noop";
import { splitNode } from "./flow/split";
import { stopNode } from "./flow/stop";
import { waitNode } from "./flow/wait";
import { placeholderNode } from "./import/placeholder";
import { httpRequestNode } from "./http/request";
import { ifNode } from "./logic/if";
import { natsPublishNode } from "./messaging/nats-publish";
import { switchNode } from "./logic/switch";
import { redisCommandNode } from "./redis/command";
import { mqttPublishNode } from "./mqtt/publish";
import { amqpTrigger } from "./triggers/amqp";
import { cronTrigger } from "./triggers/cron";
import { emailTrigger } from "./triggers/email";
import { errorTrigger } from "./triggers/error";
import { imapTrigger } from "./triggers/imap";
import { manualTrigger } from "./triggers/manual";
import { mqttTrigger } from "./triggers/mqtt";
import { webhookTrigger } from "./triggers/webhook";
import { respondNode } from "./webhook/respond";

/** Every node and trigger type this package ships. */
export const nodeTypes: readonly AnyNodeType[] = [
  manualTrigger,
  webhookTrigger,
  emailTrigger,
  cronTrigger,
  errorTrigger,
  imapTrigger,
  mqttTrigger,
  amqpTrigger,
  httpRequestNode,
  setNode,
  transformNode,
  codeNode,
  ifNode,
  switchNode,
  mergeNode,
  splitNode,
  waitNode,
  noopNode,
  stopNode,
  callNode,
  respondNode,
  sendEmailNode,
  agentNode,
  postgresQueryNode,
  mysqlQueryNode,
  redisCommandNode,
  natsPublishNode,
  placeholderNode,
  mqttPublishNode,
  amqpPublishNode,
] as AnyNodeType[];

/** Builds a registry over some node types; type ids must be unique. */
export function createRegistry(types: readonly AnyNodeType[]): NodeRegistry & { types(): string[] } {
  const map = new Map<string, AnyNodeType>();
  for (const t of types) {
    if (map.has(t.type)) throw new Error(`duplicate node type "${t.type}"`);
    map.set(t.type, t);
  }
  return { get: (type) => map.get(type), types: () => [...map.keys()] };
}

export const registry = createRegistry(nodeTypes);

/** The catalogue the editor builds its palette and config forms from. Plain JSON, checked against its contract. */
export function catalogue(types: readonly AnyNodeType[] = nodeTypes): CatalogueEntry[] {
  return types.map((t) =>
    catalogueEntry.parse({
      type: t.type,
      typeVersion: t.typeVersion,
      kind: t.kind,
      title: t.title,
      description: t.description,
      category: t.category,
      icon: t.icon,
      ports: t.ports,
      inputs: t.kind === "action" ? t.inputs : [],
      configSchema: z.toJSONSchema(t.config, { io: "input", unrepresentable: "any" }),
      example: t.example,
    }),
  );
}
