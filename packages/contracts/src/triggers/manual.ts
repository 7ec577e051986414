/**
 * The manual trigger's config, and the payload of a run started by a person or a program: the editor's
 * Run button and the CLI (channel `manual`), `POST /api/v1/flows/{id}/runs` (channel `api`).
 */
import { z } from "zod";

export const manualConfig = z.object({
  samplePayload: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("Sample payload used when the flow is run from the editor"),
});
export type ManualConfig = z.infer<typeof manualConfig>;

/**
 * What a manual or API run's trigger item holds: the JSON object the run was started with ({} when
 * none). A value that is not an object (`[1, 2]`, `"hi"`) arrives as `{ "value": … }`.
 */
export const runPayload = z
  .record(z.string(), z.unknown())
  .describe("The JSON object given when the run was started; any other JSON value arrives as { value }");
export type RunPayload = z.infer<typeof runPayload>;
