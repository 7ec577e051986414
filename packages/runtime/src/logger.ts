import pino from "pino";
import type { Config } from "./config";

export type Logger = pino.Logger;

/** Structured JSON logs on stdout; secrets are redacted by path wherever they might appear. */
export function createLogger(level: Config["logLevel"]): Logger {
  return pino({
    level,
    base: { service: "switchyard" },
    redact: {
      paths: ["*.password", "*.apiKey", "*.authorization", "*.headers.authorization", "*.headers.cookie", "*.secret"],
      censor: "[redacted]",
    },
  });
}
