import { createAmqpListener } from "./amqp/listener";
import type { BrokerListenerDeps } from "./broker/deps";
import { createCronListener } from "./cron/listener";
import { createEmailListener } from "./email/listener";
import { errorListener } from "./error/listener";
import { createImapListener } from "./imap/listener";
import { manualListener } from "./manual/listener";
import { createMqttListener } from "./mqtt/listener";
import { createWebhookListener } from "./webhook/listener";

/**
 * The listeners of the trigger types Switchyard ships: the one list a new shipped trigger is added to
 * (its definition goes in @switchyard/nodes' `nodeTypes`). Each is built with what it needs from the host.
 */
export function createShippedListeners(d: {
  webhook: Parameters<typeof createWebhookListener>[0];
  email: Parameters<typeof createEmailListener>[0];
  cron: Parameters<typeof createCronListener>[0];
  imap: Parameters<typeof createImapListener>[0];
  /** MQTT and AMQP triggers: credentials, the outbound guard, a log. */
  brokers: BrokerListenerDeps;
}) {
  const webhook = createWebhookListener(d.webhook);
  const email = createEmailListener(d.email);
  const cron = createCronListener(d.cron);
  const imap = createImapListener(d.imap);
  const mqtt = createMqttListener(d.brokers);
  const amqp = createAmqpListener(d.brokers);
  return {
    email,
    imap,
    mqtt,
    amqp,
    list: [manualListener, webhook, email, cron, errorListener, imap, mqtt, amqp],
  };
}
