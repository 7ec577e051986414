/**
 * Postgres, MySQL, Redis, MQTT, RabbitMQ → the integration nodes (`postgres.query`, `mysql.query`,
 * `redis.command`, `mqtt.publish`, `amqp.publish`), by the ids and fields agreed for issue #24.
 */
import { splitTemplate } from "../expressions";
import { type MapContext, type Mapper, obj, str } from "./types";

/**
 * n8n's query replacements: an array, or one text of comma-separated values where each `{{ }}` is one
 * value (n8n splits the same way). Each becomes one parameter.
 */
function replacements(v: unknown, ctx: MapContext): unknown[] {
  if (Array.isArray(v)) return v.map((x, i) => ctx.value(x, `options.queryReplacement.${i}`));
  if (typeof v !== "string" || !v.trim()) return [];
  const expr = v.startsWith("=");
  const text = expr ? v.slice(1) : v;
  const parts = splitTemplate(text) ?? [{ text }];
  const values: string[] = [];
  let current = "";
  for (const part of parts) {
    if ("code" in part) current += `{{${part.code}}}`;
    else
      for (const [i, piece] of part.text.split(",").entries()) {
        if (i > 0) {
          values.push(current);
          current = "";
        }
        current += piece;
      }
  }
  values.push(current);
  return values
    .map((s) => s.trim())
    .filter((s) => s !== "")
    .map((s, i) => ctx.value(expr ? `=${s}` : s, `options.queryReplacement.${i}`));
}

function sqlQuery(ctx: MapContext, type: "postgres.query" | "mysql.query", credentialType: string) {
  const p = ctx.params;
  const operation = str(p.operation) ?? "executeQuery";
  if (operation !== "executeQuery")
    return {
      unsupported: `the ${credentialType} operation "${operation}" (only Execute Query is translated)`,
    };
  let query = String(ctx.value(p.query ?? "", "query"));
  let params = replacements(obj(p.options).queryReplacement, ctx);
  // v1 named item fields whose values fill $1, $2, …
  const v1Fields = str(obj(p.additionalFields).queryParams);
  if (v1Fields) params = v1Fields.split(",").map((f) => `=item.${f.trim()}`);
  if (type === "mysql.query") {
    // n8n's MySQL takes $1…$n; the mysql node takes ? in order of appearance.
    const order: number[] = [];
    query = query.replace(/\$(\d+)/g, (_, n: string) => {
      order.push(Number(n) - 1);
      return "?";
    });
    if (order.length) params = order.map((i) => params[i]);
  }
  for (const k of Object.keys(obj(p.options)))
    if (k !== "queryReplacement") ctx.loss(`options.${k}`, `option "${k}" is not translated`);
  return { type, config: { credentialId: ctx.credential(credentialType), query, params } };
}

export const postgres: Mapper = (ctx) => sqlQuery(ctx, "postgres.query", "postgres");
export const mysql: Mapper = (ctx) => sqlQuery(ctx, "mysql.query", "mySql");

export const redis: Mapper = (ctx) => {
  const p = ctx.params;
  const op = str(p.operation) ?? "info";
  const base = { credentialId: ctx.credential("redis") };
  const key = (f = "key") => ctx.value(p[f] ?? "", f);
  const ttl = () => (p.expire && typeof p.ttl === "number" ? { ttlSeconds: p.ttl } : {});
  if (["get", "set", "incr"].includes(op) || op === "delete")
    ctx.loss(
      undefined,
      "the item is the redis.command node's answer (n8n merged the value into the input item)",
    );
  switch (op) {
    case "get":
      if (p.keyType === "hash")
        return { type: "redis.command", config: { ...base, command: "hgetall", key: key() } };
      if (p.keyType === "list")
        return {
          type: "redis.command",
          config: { ...base, command: "lrange", key: key(), start: 0, stop: -1 },
        };
      return { type: "redis.command", config: { ...base, command: "get", key: key() } };
    case "set":
      if (p.keyType && !["automatic", "string"].includes(String(p.keyType)))
        return { unsupported: `Redis set of a ${String(p.keyType)} key` };
      return {
        type: "redis.command",
        config: { ...base, command: "set", key: key(), value: ctx.value(p.value, "value"), ...ttl() },
      };
    case "delete":
      return { type: "redis.command", config: { ...base, command: "del", key: key() } };
    case "incr":
      return { type: "redis.command", config: { ...base, command: "incr", key: key(), ...ttl() } };
    case "publish":
      return {
        type: "redis.command",
        config: {
          ...base,
          command: "publish",
          key: key("channel"),
          value: ctx.value(p.messageData, "messageData"),
        },
      };
    case "push":
      return {
        type: "redis.command",
        config: {
          ...base,
          command: p.tail ? "rpush" : "lpush",
          key: key("list"),
          value: ctx.value(p.messageData, "messageData"),
        },
      };
    case "pop":
      return {
        type: "redis.command",
        config: { ...base, command: p.tail ? "rpop" : "lpop", key: key("list") },
      };
    default:
      return { unsupported: `the Redis operation "${op}"` };
  }
};

export const mqtt: Mapper = (ctx) => {
  const p = ctx.params;
  const options = obj(p.options);
  const sendInput = p.sendInputData !== false;
  return {
    type: "mqtt.publish",
    config: {
      credentialId: ctx.credential("mqtt"),
      topic: ctx.value(p.topic ?? "", "topic"),
      message: sendInput ? "=item" : ctx.value(p.message ?? "", "message"),
      qos: typeof options.qos === "number" ? options.qos : 0,
      retain: options.retain === true,
    },
  };
};

export const rabbitmq: Mapper = (ctx) => {
  const p = ctx.params;
  if (p.operation === "deleteMessage")
    return { unsupported: "RabbitMQ Delete From Queue (used with the RabbitMQ trigger)" };
  const options = obj(p.options);
  const mode = str(p.mode) ?? "queue";
  const headers = (obj(options.headers).header as { key?: string; value?: unknown }[] | undefined) ?? [];
  const config: Record<string, unknown> = {
    credentialId: ctx.credential("rabbitmq"),
    mode,
    message: p.sendInputData !== false ? "=item" : ctx.value(p.message ?? "", "message"),
    persistent: true,
  };
  // n8n's node declares the queue it sends to (durable by default), so an imported flow does too.
  if (mode === "queue") {
    config.queue = ctx.value(p.queue ?? "", "queue");
    config.declareQueue = true;
  } else {
    config.exchange = ctx.value(p.exchange ?? "", "exchange");
    config.routingKey = ctx.value(p.routingKey ?? "", "routingKey");
    if (
      p.exchangeType &&
      p.exchangeType !== "fanout" &&
      p.exchangeType !== "direct" &&
      p.exchangeType !== "topic"
    )
      ctx.loss(
        "exchangeType",
        `the exchange type "${String(p.exchangeType)}" is not declared: the exchange must exist`,
      );
  }
  if (headers.length)
    config.headers = Object.fromEntries(headers.map((h) => [String(h.key), String(h.value ?? "")]));
  for (const k of Object.keys(options))
    if (k !== "headers") ctx.loss(`options.${k}`, `RabbitMQ option "${k}" is not translated`);
  return { type: "amqp.publish", config };
};
