/**
 * One entry of the node catalogue: what the nodes package publishes about each node and trigger type
 * (tRPC `catalogue.list`) and what the editor builds its palette, ports and config forms from.
 */
import { z } from "zod";

/**
 * The JSON Schema keywords the catalogue's readers use, as `z.toJSONSchema(config, { io: "input" })`
 * writes them (other keywords may be present and are ignored). A type alias, not an interface, so it
 * stays assignable to `Record<string, unknown>`.
 */
export type JsonSchema = {
  type?: string | string[];
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  contentMediaType?: string;
  /** A value chosen from what the host has loaded (set with `.meta({ "x-picker": … })`): `agent` = agent definitions. */
  "x-picker"?: "agent";
};

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export const nodeKinds = ["action", "trigger"] as const;

export const catalogueEntry = z.object({
  type: z.string().min(1),
  typeVersion: z.int().min(1),
  kind: z.enum(nodeKinds),
  title: z.string(),
  description: z.string(),
  category: z.string(),
  icon: z.string(),
  /** Output ports, named (`error` is added on the canvas when the node routes errors). */
  ports: z.array(z.string()),
  /** Input ports; empty for a trigger. */
  inputs: z.array(z.string()),
  /** JSON Schema of the config as the user writes it (fields with defaults are optional). */
  configSchema: z.custom<JsonSchema>(isPlainObject, "expected a JSON Schema object"),
  /** An example config (docs, the catalogue round-trip test); JSON, as everything in the catalogue. */
  example: z.json(),
});
export type CatalogueEntry = z.infer<typeof catalogueEntry>;
