/**
 * The parts of n8n's workflow export we read (n8n's `IWorkflowBase`: nodes, connections, settings).
 * Lenient where n8n is (unknown keys are kept and ignored), strict where a mistake would make the
 * import wrong, so a file that is not an n8n workflow gets a clear message naming the place.
 */
import { z } from "zod";

export const N8nCredentialRef = z.object({ id: z.string().nullish(), name: z.string() });

export const N8nNode = z.object({
  id: z.string().optional(),
  name: z.string().min(1),
  type: z.string().min(1),
  typeVersion: z.number().default(1),
  position: z.tuple([z.number(), z.number()]).default([0, 0]),
  parameters: z.record(z.string(), z.unknown()).default({}),
  credentials: z.record(z.string(), N8nCredentialRef).optional(),
  disabled: z.boolean().optional(),
  notes: z.string().optional(),
  notesInFlow: z.boolean().optional(),
  continueOnFail: z.boolean().optional(),
  onError: z.enum(["continueErrorOutput", "continueRegularOutput", "stopWorkflow"]).optional(),
  retryOnFail: z.boolean().optional(),
  maxTries: z.number().optional(),
  waitBetweenTries: z.number().optional(),
  alwaysOutputData: z.boolean().optional(),
  executeOnce: z.boolean().optional(),
  webhookId: z.string().optional(),
});
export type N8nNode = z.infer<typeof N8nNode>;

const N8nConnection = z.object({
  node: z.string(),
  type: z.string().default("main"),
  index: z.number().int().min(0).default(0),
});
export type N8nConnection = z.infer<typeof N8nConnection>;

export const N8nWorkflow = z.object({
  name: z.string().optional(),
  nodes: z.array(N8nNode),
  /** Source node name → connection type → output index → targets. */
  connections: z
    .record(z.string(), z.record(z.string(), z.array(z.array(N8nConnection).nullable())))
    .default({}),
  settings: z
    .object({ timezone: z.string().optional(), errorWorkflow: z.string().optional() })
    .loose()
    .optional(),
  pinData: z
    .record(z.string(), z.array(z.object({ json: z.record(z.string(), z.unknown()) }).loose()))
    .optional(),
});
export type N8nWorkflow = z.infer<typeof N8nWorkflow>;
