/** n8n node type → mapper. Types not listed become placeholders. */
import { code } from "./code";
import { set, splitOut } from "./data";
import { executeWorkflow, noop, stopAndError, wait } from "./flow";
import { mysql, mqtt, postgres, rabbitmq, redis } from "./integrations";
import { ifNode, merge, switchNode } from "./logic";
import { httpRequest, respondToWebhook, sendEmail } from "./network";
import {
  emailImap,
  executeWorkflowTrigger,
  manual,
  mqttTrigger,
  rabbitmqTrigger,
  schedule,
  webhook,
} from "./triggers";
import type { Mapper } from "./types";

export const mappers: Record<string, Mapper> = {
  "n8n-nodes-base.webhook": webhook,
  "n8n-nodes-base.scheduleTrigger": schedule,
  "n8n-nodes-base.manualTrigger": manual,
  "n8n-nodes-base.emailReadImap": emailImap,
  "n8n-nodes-base.executeWorkflowTrigger": executeWorkflowTrigger,
  "n8n-nodes-base.mqttTrigger": mqttTrigger,
  "n8n-nodes-base.rabbitmqTrigger": rabbitmqTrigger,
  "n8n-nodes-base.set": set,
  "n8n-nodes-base.if": ifNode,
  "n8n-nodes-base.switch": switchNode,
  "n8n-nodes-base.merge": merge,
  "n8n-nodes-base.splitOut": splitOut,
  "n8n-nodes-base.wait": wait,
  "n8n-nodes-base.noOp": noop,
  "n8n-nodes-base.stopAndError": stopAndError,
  "n8n-nodes-base.executeWorkflow": executeWorkflow,
  "n8n-nodes-base.code": code,
  "n8n-nodes-base.httpRequest": httpRequest,
  "n8n-nodes-base.respondToWebhook": respondToWebhook,
  "n8n-nodes-base.emailSend": sendEmail,
  "n8n-nodes-base.postgres": postgres,
  "n8n-nodes-base.mySql": mysql,
  "n8n-nodes-base.redis": redis,
  "n8n-nodes-base.mqtt": mqtt,
  "n8n-nodes-base.rabbitmq": rabbitmq,
};

/** n8n's sticky note: becomes a canvas note, never a node. */
export const STICKY_NOTE = "n8n-nodes-base.stickyNote";
