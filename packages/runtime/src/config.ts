import path from "node:path";
import { z } from "zod";
import { hostnameOf } from "./auth/hosts";

/**
 * The one place environment variables are read. Everything downstream receives a parsed Config.
 * Variable names are the keys of `envSchema`; descriptions feed the README table.
 */

const port = (what: string) =>
  z.coerce
    .number({ error: `expected a port number (0-65535, 0 = any free port)` })
    .int(`expected a whole port number for ${what}`)
    .min(0, "expected a port number (0-65535, 0 = any free port)")
    .max(65535, "expected a port number (0-65535, 0 = any free port)");

export const envSchema = z.object({
  SWITCHYARD_DATA_DIR: z
    .string()
    .min(1)
    .default("./data")
    .describe("Folder for the SQLite database, keys and files"),
  PORT: port("the HTTP server").default(3000).describe("HTTP port for the UI, API and webhooks"),
  HOST: z.string().min(1).default("127.0.0.1").describe("Interface to listen on (0.0.0.0 to expose)"),
  SWITCHYARD_SMTP_PORT: port("inbound SMTP").default(2525).describe("Port of the embedded SMTP server"),
  SWITCHYARD_SMTP_HOST: z
    .string()
    .min(1)
    .default("127.0.0.1")
    .describe("Interface of the embedded SMTP server"),
  SWITCHYARD_SMTP_DOMAIN: z
    .string()
    .min(1)
    .default("localhost")
    .describe("Domain of e-mail trigger addresses"),
  SWITCHYARD_BASE_URL: z
    .url()
    .optional()
    .describe("Public URL used in webhook links (default http://HOST:PORT)"),
  SWITCHYARD_ALLOWED_HOSTS: z
    .string()
    .transform((v) =>
      v
        .split(",")
        .map((h) => h.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        // The same parse as a request's Host; the port is dropped (a rebinding page chooses it freely).
        z.string().transform((entry, ctx) => {
          const name = hostnameOf(entry);
          if (!name)
            ctx.addIssue({
              code: "custom",
              message: "expected host names separated by commas, e.g. switchyard.example.com,sy.lan",
            });
          return name ?? "";
        }),
      ),
    )
    .optional()
    .describe(
      "More host names the UI may be reached by (comma-separated; the base URL's host, localhost and IP addresses always are)",
    ),
  SWITCHYARD_ENCRYPTION_KEY: z
    .string()
    .regex(/^[A-Za-z0-9+/=]{43,44}$/, "expected 32 bytes in base64")
    .optional()
    .describe("Key for secrets at rest (default: generated key file)"),
  LOG_LEVEL: z
    .enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"])
    .default("info")
    .describe("Log level"),
  SWITCHYARD_WEB_DIR: z.string().optional().describe("Folder of the built web app (default apps/web)"),
  SWITCHYARD_TRUST_PROXY: z
    .enum(["true", "false", "1", "0"], { error: "expected true or false" })
    .default("false")
    .describe("Trust X-Forwarded-For from a reverse proxy in front of Switchyard"),
  SWITCHYARD_DATABASE_URL: z
    .string()
    .regex(
      /^postgres(ql)?:\/\/\S+$/,
      "expected a PostgreSQL URL, e.g. postgres://user:pass@db:5432/switchyard",
    )
    .optional()
    .describe(
      "PostgreSQL as the system of record instead of the SQLite file (scale-out; needs SWITCHYARD_REDIS_URL)",
    ),
  SWITCHYARD_REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/\S+$/, "expected a Redis URL, e.g. redis://127.0.0.1:6379")
    .optional()
    .describe(
      "Redis for the BullMQ run queue and cross-process events (scale-out; needs SWITCHYARD_DATABASE_URL)",
    ),
  SWITCHYARD_WORKER_CONCURRENCY: z.coerce
    .number({ error: "expected a whole number of runs, 1 or more" })
    .int("expected a whole number of runs, 1 or more")
    .min(1, "expected a whole number of runs, 1 or more")
    .max(10_000, "expected at most 10000 runs per worker process")
    .default(32)
    .describe("Runs one worker process executes at once"),
  SWITCHYARD_REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, "expected 1-64 letters, digits, '_', '.' or '-'")
    .default("switchyard")
    .describe("Scale-out: prefix of every Redis key and channel (several deployments can share one Redis)"),
  SWITCHYARD_WORKER_LOCK_MS: z.coerce
    .number({ error: "expected milliseconds, 1000 or more" })
    .int("expected whole milliseconds")
    .min(1000, "expected milliseconds, 1000 or more")
    .default(30_000)
    .describe("Scale-out: how long a stopped worker holds its runs before another worker resumes them"),
  SWITCHYARD_URL: z
    .url({ error: "expected the server's base URL, e.g. http://127.0.0.1:3000" })
    .optional()
    .describe("Server the CLI talks to instead of the local data dir (same as --url)"),
  SWITCHYARD_API_KEY: z
    .string()
    .min(1)
    .optional()
    .describe("API key the CLI sends to SWITCHYARD_URL (same as --api-key)"),
});

export interface Config {
  dataDir: string;
  dbFile: string;
  memoryFile: string;
  port: number;
  host: string;
  smtp: { port: number; host: string; domain: string };
  baseUrl: string;
  encryptionKey?: string;
  logLevel: z.infer<typeof envSchema>["LOG_LEVEL"];
  webDir?: string;
  /** Where CLI commands send their requests when not using the local data dir. */
  remote: { url?: string; apiKey?: string };
  /** Take client addresses from X-Forwarded-For (only behind a reverse proxy that sets it). */
  trustProxy: boolean;
  /** Host names (lower case, no port) besides the base URL's that browsers may address us by. */
  allowedHosts: string[];
  /** Scale-out: PostgreSQL + Redis instead of the SQLite file and its in-process queue. */
  scale?: { databaseUrl: string; redisUrl: string; redisPrefix: string; lockMs: number };
  workerConcurrency: number;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses the environment; the error names the first bad variable on one line. */
export function parseConfig(env: Record<string, string | undefined>, cwd = process.cwd()): Config {
  // Empty strings mean "unset", as in most shells' `VAR= cmd`.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0]);
    throw new ConfigError(
      `invalid environment variable ${name}=${JSON.stringify(env[name] ?? "")}: ${issue.message}`,
    );
  }
  const e = parsed.data;
  // PostgreSQL without Redis (or the reverse) is not a mode Switchyard has: say which half is missing.
  if (Boolean(e.SWITCHYARD_DATABASE_URL) !== Boolean(e.SWITCHYARD_REDIS_URL)) {
    const [set, missing] = e.SWITCHYARD_DATABASE_URL
      ? ["SWITCHYARD_DATABASE_URL", "SWITCHYARD_REDIS_URL"]
      : ["SWITCHYARD_REDIS_URL", "SWITCHYARD_DATABASE_URL"];
    throw new ConfigError(
      `invalid environment: ${set} is set but ${missing} is not; scale-out needs both (PostgreSQL for state, Redis for the run queue)`,
    );
  }
  const dataDir = path.resolve(cwd, e.SWITCHYARD_DATA_DIR);
  const shownHost = e.HOST === "0.0.0.0" || e.HOST === "::" ? "localhost" : e.HOST;
  return {
    dataDir,
    dbFile: path.join(dataDir, "switchyard.db"),
    memoryFile: path.join(dataDir, "memory.db"),
    port: e.PORT,
    host: e.HOST,
    smtp: { port: e.SWITCHYARD_SMTP_PORT, host: e.SWITCHYARD_SMTP_HOST, domain: e.SWITCHYARD_SMTP_DOMAIN },
    baseUrl: (e.SWITCHYARD_BASE_URL ?? `http://${shownHost}:${e.PORT}`).replace(/\/$/, ""),
    encryptionKey: e.SWITCHYARD_ENCRYPTION_KEY,
    logLevel: e.LOG_LEVEL,
    webDir: e.SWITCHYARD_WEB_DIR ? path.resolve(cwd, e.SWITCHYARD_WEB_DIR) : undefined,
    trustProxy: e.SWITCHYARD_TRUST_PROXY === "true" || e.SWITCHYARD_TRUST_PROXY === "1",
    allowedHosts: e.SWITCHYARD_ALLOWED_HOSTS ?? [],
    remote: { url: e.SWITCHYARD_URL?.replace(/\/$/, ""), apiKey: e.SWITCHYARD_API_KEY },
    ...(e.SWITCHYARD_DATABASE_URL && e.SWITCHYARD_REDIS_URL
      ? {
          scale: {
            databaseUrl: e.SWITCHYARD_DATABASE_URL,
            redisUrl: e.SWITCHYARD_REDIS_URL,
            redisPrefix: e.SWITCHYARD_REDIS_PREFIX,
            lockMs: e.SWITCHYARD_WORKER_LOCK_MS,
          },
        }
      : {}),
    workerConcurrency: e.SWITCHYARD_WORKER_CONCURRENCY,
  };
}
