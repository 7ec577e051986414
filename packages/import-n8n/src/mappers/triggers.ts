/** n8n trigger nodes → Switchyard triggers. */
import { type MapContext, type Mapper, obj, str } from "./types";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

export const webhook: Mapper = (ctx) => {
  const p = ctx.params;
  const raw = str(p.path) ?? ctx.n8n.webhookId ?? ctx.id;
  const path = raw.replace(/^\/+|\/+$/g, "");
  if (!/^[a-z0-9][a-z0-9_-]*(\/(:[a-z_][a-z0-9_]*|[a-z0-9_-]+))*$/i.test(path))
    return { unsupported: `the webhook path "${raw}" has characters Switchyard paths do not allow` };
  const methodsParam = p.multipleMethods ? p.httpMethod : [p.httpMethod ?? "GET"];
  const methods = (Array.isArray(methodsParam) ? methodsParam : [methodsParam]).map((m) =>
    String(m).toUpperCase(),
  );
  const kept = methods.filter((m) => METHODS.includes(m));
  if (kept.length < methods.length)
    ctx.loss("httpMethod", `methods ${methods.filter((m) => !kept.includes(m)).join(", ")} are not served`);
  const mode = str(p.responseMode) ?? "onReceived";
  if (mode === "lastNode")
    ctx.loss(
      "responseMode",
      'n8n answered with the last node\'s data; here the run answers as a sync webhook does without a "Respond to webhook" node (add one to shape the answer)',
    );
  const options = obj(p.options);
  for (const k of Object.keys(options))
    if (k !== "rawBody") ctx.loss(`options.${k}`, `webhook option "${k}" is not translated`);
  if (p.responseCode !== undefined && mode === "onReceived")
    ctx.loss("responseCode", "the immediate answer's status is always 202 here");
  const config: Record<string, unknown> = {
    path,
    methods: kept.length ? kept : ["POST"],
    responseMode: mode === "onReceived" ? "async" : "sync",
  };
  if (options.rawBody) config.bodyType = "raw";
  const auth = str(p.authentication) ?? "none";
  if (auth === "basicAuth") config.auth = { type: "basic", credentialId: ctx.credential("httpBasicAuth") };
  else if (auth === "headerAuth") {
    config.auth = { type: "header", name: undefined, credentialId: ctx.credential("httpHeaderAuth") };
    ctx.report.problem(
      "credential_unresolved",
      ctx.node,
      "authentication",
      "n8n keeps the header name in the credential, which exports do not carry: set auth.name",
    );
  } else if (auth !== "none") return { unsupported: `webhook authentication "${auth}" has no equivalent` };
  return { type: "trigger.webhook", config };
};

/** One n8n schedule rule as a cron expression (node-cron reads 6 fields as seconds first). */
function ruleToCron(rule: Record<string, unknown>, ctx: MapContext): string | undefined {
  const n = (k: string, d: number) => (typeof rule[k] === "number" ? (rule[k] as number) : d);
  const minute = n("triggerAtMinute", 0);
  const hour = n("triggerAtHour", 0);
  const every = (x: number) => (x <= 1 ? "*" : `*/${x}`);
  switch (rule.field ?? "days") {
    case "seconds":
      return `${every(n("secondsInterval", 30))} * * * * *`;
    case "minutes":
      return `${every(n("minutesInterval", 5))} * * * *`;
    case "hours":
      return `${minute} ${every(n("hoursInterval", 1))} * * *`;
    case "days":
      return `${minute} ${hour} ${every(n("daysInterval", 1))} * *`;
    case "weeks": {
      if (n("weeksInterval", 1) > 1)
        ctx.loss(
          "rule.interval",
          `every ${n("weeksInterval", 1)} weeks became every week: cron has no week interval`,
        );
      const days =
        Array.isArray(rule.triggerAtDay) && rule.triggerAtDay.length ? rule.triggerAtDay.join(",") : "0";
      return `${minute} ${hour} * * ${days}`;
    }
    case "months":
      return `${minute} ${hour} ${n("triggerAtDayOfMonth", 1)} ${every(n("monthsInterval", 1))} *`;
    case "cronExpression":
      return str(rule.expression);
    default:
      return undefined;
  }
}

export const schedule: Mapper = (ctx) => {
  const rules = (obj(ctx.params.rule).interval as Record<string, unknown>[] | undefined) ?? [
    { field: "days" },
  ];
  const first = rules[0] ?? { field: "days" };
  const expression = ruleToCron(first, ctx);
  if (!expression) return { unsupported: `schedule rule "${String(first.field)}" has no cron equivalent` };
  if (rules.length > 1)
    ctx.loss(
      "rule.interval",
      `only the first of ${rules.length} schedule rules is kept: a trigger has one schedule`,
    );
  ctx.loss(
    undefined,
    "a schedule run's item is { scheduledAt, firedAt, expression, timezone, missed }, not n8n's date fields",
  );
  return { type: "trigger.cron", config: { expression, overlap: "allow", missed: "skip" } };
};

export const manual: Mapper = () => ({ type: "trigger.manual", config: {} });

export const emailImap: Mapper = (ctx) => {
  const p = ctx.params;
  if (p.postProcessAction === "nothing")
    ctx.loss("postProcessAction", "handled mail is marked read (n8n left it untouched)");
  if (p.format && p.format !== "simple")
    ctx.loss("format", `format "${String(p.format)}" is not kept: the item is the e-mail trigger's payload`);
  return {
    type: "trigger.imap",
    config: {
      credentialId: ctx.credential("imap"),
      mailbox: str(p.mailbox) ?? "INBOX",
      after: "mark_read",
      pollSeconds: 60,
    },
  };
};

export const mqttTrigger: Mapper = (ctx) => {
  const topics = String(ctx.params.topics ?? "")
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  if (topics.length === 0) return { unsupported: "the MQTT trigger names no topic" };
  if (topics.length > 1) ctx.loss("topics", `only the first of ${topics.length} topics is subscribed`);
  return { type: "trigger.mqtt", config: { credentialId: ctx.credential("mqtt"), topic: topics[0], qos: 1 } };
};

export const rabbitmqTrigger: Mapper = (ctx) => {
  const queue = str(ctx.params.queue);
  if (!queue) return { unsupported: "the RabbitMQ trigger names no queue" };
  return { type: "trigger.amqp", config: { credentialId: ctx.credential("rabbitmq"), queue, prefetch: 10 } };
};

/**
 * Execute Workflow Trigger: our called flows start with one item `{ items: [...] }` (the caller's
 * items); a Transform after the trigger gives the flow n8n's shape, one item per caller item.
 */
export const executeWorkflowTrigger: Mapper = (ctx) => {
  if (ctx.params.inputSource && ctx.params.inputSource !== "passthrough")
    ctx.loss("inputSource", "the declared input fields are not checked: the caller's items pass through");
  return {
    type: "trigger.manual",
    config: {},
    after: {
      idSuffix: "_items",
      type: "data.transform",
      name: `${ctx.node} (items)`,
      config: { expression: "items.items" },
    },
  };
};
