import pino from "pino";
import type { Config } from "./config";

export type Logger = pino.Logger;

/**
 * Structured JSON logs on stderr, so stdout carries only a command's result (`--json | jq` works);
 * secrets are redacted by path wherever they might appear.
 */
export function createLogger(level: Config["logLevel"]): Logger {
  return pino(
    {
      level,
      base: { service: "switchyard" },
      redact: {
        paths: [
          "*.password",
          "*.apiKey",
          "*.authorization",
          "*.headers.authorization",
          "*.headers.cookie",
          "*.secret",
        ],
        censor: "[redacted]",
      },
    },
    // Synchronous like pino's default stdout destination: a line is written before the process can exit.
    pino.destination({ dest: 2, sync: true }),
  );
}
