/**
 * Credential types: their names, labels and fields (values are always strings and never leave the
 * server), and the host patterns an outbound credential is bound to. The vault validates with these;
 * nodes and the LLM provider check a target host with `hostAllowed` before sending one.
 */
import { z } from "zod";

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** Lower case, no brackets around an IPv6 literal, no trailing dot: the form hosts are compared in. */
export const normaliseHost = (host: string) =>
  host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");

/**
 * An IPv4 address in four decimal parts, or an IPv6 address (brackets optional). IPv6 is checked by
 * the WHATWG URL parser, which every runtime has (no dependency); it refuses zone ids (`%eth0`), which no
 * URL host can carry, so a pattern with one could never match anyway.
 */
export function isIpLiteral(host: string): boolean {
  const literal = host.replace(/^\[|\]$/g, "");
  if (IPV4.test(literal)) return true;
  return literal.includes(":") && /^[0-9a-f:.]+$/i.test(literal) && URL.canParse(`http://[${literal}]/`);
}

/** Splits the stored field into patterns (commas, spaces or new lines between them). */
export function parseAllowedHosts(raw: string | undefined): string[] {
  if (!raw) return [];
  return raw
    .split(/[\s,]+/)
    .map(normaliseHost)
    .filter((p) => p.length > 0);
}

/**
 * Why a pattern is unusable, or null. Patterns: `api.example.com` (that host only) or `*.example.com`
 * (any subdomain, not the apex); IP literals match exactly. No port, no scheme.
 */
export function hostPatternProblem(pattern: string): string | null {
  const p = normaliseHost(pattern);
  if (isIpLiteral(p)) return null;
  if (/[/@?#]/.test(p) || p.includes("://"))
    return `"${pattern}" is not a host name (no scheme, path or user)`;
  if (/:\d+$/.test(p)) return `"${pattern}" has a port; give the host only`;
  const body = p.startsWith("*.") ? p.slice(2) : p;
  if (body.includes("*")) return `"${pattern}" may use * only as its first label, as in *.example.com`;
  const labels = body.split(".");
  if (p.startsWith("*.") && labels.length < 2)
    return `"${pattern}" is too broad; name a domain, as in *.example.com`;
  if (!labels.every((l) => LABEL.test(l))) return `"${pattern}" is not a valid host name`;
  return null;
}

/** True when `host` (a URL hostname or SMTP host) matches one of the patterns. */
export function hostAllowed(host: string, patterns: readonly string[]): boolean {
  const h = normaliseHost(host);
  return patterns.some((raw) => {
    const p = normaliseHost(raw);
    return p.startsWith("*.") ? h.endsWith(p.slice(1)) && h.length > p.length - 1 : h === p;
  });
}

/** Where an outbound credential may be sent: host patterns, comma-separated like every credential value. */
const allowedHosts = z
  .string()
  .superRefine((raw, ctx) => {
    const patterns = parseAllowedHosts(raw);
    if (patterns.length === 0)
      ctx.addIssue({
        code: "custom",
        message: "list the hosts this credential may be sent to, e.g. api.example.com or *.example.com",
      });
    for (const p of patterns) {
      const problem = hostPatternProblem(p);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }
  })
  .describe("Hosts this credential may be sent to (comma-separated; *.example.com for subdomains)");

/** A TCP port as credential text (all credential values are strings). */
const portField = z
  .string()
  .regex(/^\d+$/)
  // Only digits get a range check: "25x" is reported once, by the regex.
  .refine((p) => !/^\d+$/.test(p) || (Number(p) >= 1 && Number(p) <= 65_535), "use a port from 1 to 65535");

/** The fields of an SMTP credential as stored; the e-mail node reads them, checking the host itself. */
export const smtpCredentialFields = z.object({
  host: z.string().min(1),
  port: portField,
  secure: z.enum(["true", "false"]).default("false"),
  user: z.string().default(""),
  pass: z.string().default(""),
  from: z.string().min(3),
  allowedHosts,
});

const flag = z.enum(["true", "false"]);

/** A server credential (database, broker, mailbox): its host must be among its own allowed hosts. */
function hostBound<T extends z.ZodObject<{ host: z.ZodString; allowedHosts: typeof allowedHosts }>>(
  fields: T,
  what: string,
) {
  return fields.refine((d) => hostAllowed(d.host, parseAllowedHosts(d.allowedHosts)), {
    path: ["allowedHosts"],
    error: (i) => `the ${what} host ${(i.input as { host?: string }).host} is not among the allowed hosts`,
  });
}

/** PostgreSQL and MySQL/MariaDB: the postgres.query and mysql.query nodes read these. */
export const sqlCredentialFields = z.object({
  host: z.string().min(1),
  port: portField,
  database: z.string().min(1),
  user: z.string().min(1),
  password: z.string().default(""),
  ssl: flag.default("false").describe("true: TLS, verifying the server's certificate against the host name"),
  allowedHosts,
});

/** Redis: the redis.command node. `db` is the logical database number (default 0). */
export const redisCredentialFields = z.object({
  host: z.string().min(1),
  port: portField.default("6379"),
  user: z.string().default("").describe("ACL user name (Redis 6+); empty for the default user"),
  password: z.string().default(""),
  db: z.string().regex(/^\d+$/, "a database number, 0 or more").default("0"),
  allowedHosts,
});

/** NATS: one server (host and port); user and password, or a token, when the server wants them. */
export const natsCredentialFields = z.object({
  host: z.string().min(1),
  port: portField.default("4222"),
  user: z.string().default(""),
  password: z.string().default(""),
  token: z.string().default(""),
  allowedHosts,
});

/** An IMAP mailbox the trigger.imap listener polls. `secure`: implicit TLS (port 993); else STARTTLS when offered. */
export const imapCredentialFields = z.object({
  host: z.string().min(1),
  port: portField.default("993"),
  secure: flag.default("true"),
  user: z.string().min(1),
  password: z.string().min(1),
  allowedHosts,
});
/** An MQTT broker (mqtt.publish, trigger.mqtt); plain TCP, or TLS with `secure`. */
export const mqttCredentialFields = z.object({
  host: z.string().min(1),
  port: portField.default("1883"),
  secure: z.enum(["true", "false"]).default("false"),
  user: z.string().default(""),
  password: z.string().default(""),
  /** Client ids are this prefix plus the flow/node (triggers) or a random suffix (publishing). */
  clientIdPrefix: z
    .string()
    .regex(/^[A-Za-z0-9_-]{0,32}$/, "use up to 32 letters, digits, - or _")
    .default("switchyard"),
  allowedHosts,
});

/** An AMQP 0-9-1 broker such as RabbitMQ (amqp.publish, trigger.amqp); plain TCP, or TLS with `secure`. */
export const amqpCredentialFields = z.object({
  host: z.string().min(1),
  port: portField.default("5672"),
  secure: z.enum(["true", "false"]).default("false"),
  vhost: z.string().default("/"),
  user: z.string().min(1),
  password: z.string(),
  allowedHosts,
});

/** Credential types and their fields, as the vault stores them. */
export const credentialTypes = {
  httpHeader: z.object({ name: z.string().min(1), value: z.string().min(1), allowedHosts }),
  httpBearer: z.object({ token: z.string().min(1), allowedHosts }),
  httpBasic: z.object({ user: z.string().min(1), password: z.string(), allowedHosts }),
  smtp: hostBound(smtpCredentialFields, "SMTP"),
  // Inbound only (checked against requests that arrive), so it is never sent anywhere: no hosts.
  webhookSecret: z.object({ secret: z.string().min(1) }),
  llmProvider: z.object({ apiKey: z.string().min(1), allowedHosts }),
  postgres: hostBound(sqlCredentialFields, "PostgreSQL"),
  mysql: hostBound(sqlCredentialFields, "MySQL"),
  redis: hostBound(redisCredentialFields, "Redis"),
  nats: hostBound(natsCredentialFields, "NATS"),
  imap: hostBound(imapCredentialFields, "IMAP"),
  mqtt: hostBound(mqttCredentialFields, "MQTT"),
  amqp: hostBound(amqpCredentialFields, "AMQP"),
} as const;
export type CredentialType = keyof typeof credentialTypes;

/** Display names of the credential types (settings page, CLI). */
export const credentialLabels: Readonly<Record<CredentialType, string>> = {
  httpHeader: "HTTP header",
  httpBearer: "Bearer token",
  httpBasic: "HTTP basic auth",
  smtp: "SMTP server",
  webhookSecret: "Webhook secret",
  llmProvider: "LLM provider API key",
  postgres: "PostgreSQL database",
  mysql: "MySQL / MariaDB database",
  redis: "Redis server",
  nats: "NATS server",
  imap: "IMAP mailbox",
  mqtt: "MQTT broker",
  amqp: "AMQP broker (RabbitMQ)",
};

/** Fields that hold a secret: typed into a password box, never shown again. */
export const secretCredentialFields: ReadonlySet<string> = new Set([
  "value",
  "token",
  "password",
  "pass",
  "secret",
  "apiKey",
]);
