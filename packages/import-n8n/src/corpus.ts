/**
 * The test corpus: n8n workflow files written for the importer's tests (`corpus/<name>.json`) and what
 * each must become and do (`corpus/<name>.expected.json`). Read by this package's mapping tests and by
 * the runtime's tests that import and run every file.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const corpusDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../corpus");

export interface CorpusExpectation {
  /** How a run starts: a manual payload, a webhook call, or the schedule firing. */
  start?: { manual?: Record<string, unknown>; webhook?: { body: unknown; query?: string }; schedule?: true };
  /** n8n node name → our node type (`note` for sticky notes). */
  mapping: Record<string, string>;
  /** Codes of the report's problems, in order (none when absent). */
  problems?: string[];
  /** Our node id → config fields it must have. */
  config?: Record<string, Record<string, unknown>>;
  /** n8n credential name → our credential type the test creates for it. */
  credentials?: Record<string, string>;
  /** n8n workflow id → corpus file name imported first as the sub-flow. */
  workflows?: Record<string, string>;
  notes?: number;
  activation?: "refused";
  /** With activation refused: the error starting or activating the flow gives (`__FLOW__` = its id). */
  refused?: string;
  run?: {
    status: "succeeded" | "failed";
    error?: { node: string; message: string };
    /** Our node id → port → the items' JSON that step emitted. */
    steps?: Record<string, Record<string, unknown[]>>;
    /** Our node id → fields every item it emitted has (for values that change per run). */
    stepFields?: Record<string, string[]>;
    /** Nodes that must not have run. */
    skipped?: string[];
  };
  response?: { status: number; headers?: Record<string, string>; body?: unknown };
  [service: string]: unknown;
}

export interface CorpusEntry {
  name: string;
  /** The n8n file's text; `__HTTP__`, `__HOOK__` and `__UNIQUE__` are filled in by the test. */
  text: string;
  expected: CorpusExpectation;
}

/** Every corpus file with its expectation, by name. */
export function loadCorpus(): CorpusEntry[] {
  return readdirSync(corpusDir)
    .filter((f) => f.endsWith(".json") && !f.endsWith(".expected.json"))
    .sort()
    .map((f) => {
      const name = f.replace(/\.json$/, "");
      return {
        name,
        text: readFileSync(path.join(corpusDir, f), "utf8"),
        expected: JSON.parse(readFileSync(path.join(corpusDir, `${name}.expected.json`), "utf8")),
      };
    });
}

/** The integration node types built in parallel (#24); their run tests live apart. */
export const INTEGRATION_TYPES = [
  "postgres.query",
  "mysql.query",
  "redis.command",
  "mqtt.publish",
  "amqp.publish",
  "trigger.imap",
  "trigger.mqtt",
  "trigger.amqp",
];

export const usesIntegration = (e: CorpusEntry) =>
  Object.values(e.expected.mapping).some((t) => INTEGRATION_TYPES.includes(t));
