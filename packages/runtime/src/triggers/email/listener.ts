import { emailTrigger } from "@switchyard/nodes";
import type { z } from "zod";
import { type TriggerBinding, defineTriggerListener } from "../listener";
import { type SmtpIngressOptions, createSmtpIngress } from "./smtp-ingress";

type EmailTriggerBinding = TriggerBinding<z.output<typeof emailTrigger.config>>;

/** Inbound e-mail: one embedded SMTP server whose address book maps each local part to its flow. */
export function createEmailListener(o: Omit<SmtpIngressOptions, "admit" | "onHealth">) {
  const bound = new Map<string, EmailTriggerBinding>();
  let port = o.port;
  const ingress = createSmtpIngress({
    ...o,
    admit: async (b, payloadJson) => {
      const live = bound.get(b.flowId);
      if (!live) throw new Error(`flow ${b.flowId} has no e-mail trigger any more`);
      return live.fireJson(payloadJson);
    },
    // The listener is shared by every e-mail trigger: its health is theirs.
    onHealth: (h) => {
      for (const b of bound.values()) b.report(h);
    },
  });
  return defineTriggerListener({
    trigger: emailTrigger,
    async start() {
      ({ port } = await ingress.start());
      o.log.info({ port, domain: o.domain }, "inbound SMTP listening");
    },
    bind(b) {
      const { flowId, flowVersion, nodeId } = b;
      ingress.bind({ flowId, flowVersion, nodeId, ...b.config });
      bound.set(flowId, b);
    },
    unbind(flowId) {
      ingress.unbind(flowId);
      bound.delete(flowId);
    },
    close: () => ingress.stop(),
    /** The port SMTP really listens on (differs from the config when it asked for 0). */
    port: () => port,
    /** Test hook: the listener fails as if the OS had torn it down. */
    simulateFailure: () => ingress.simulateFailure(),
  });
}
