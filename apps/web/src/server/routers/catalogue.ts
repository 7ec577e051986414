import { getSharedPackage } from "@switchyard/runtime/host-registry";
import { z } from "zod";
import { router, TRPCError, viewerProcedure } from "../trpc";
import { loadRuntime } from "./runtime-module";

type NodesPackage = typeof import("@switchyard/nodes");

/**
 * The nodes package is loaded at run time, not bundled: its code sandbox resolves a wasm file through
 * `import.meta.url`, which bundling breaks. The host process hands over the instance it runs (see
 * host-registry); vitest loads the package as source.
 */
let nodes: Promise<NodesPackage> | undefined;
function loadNodes(): Promise<NodesPackage> {
  const shared = getSharedPackage<NodesPackage>("nodes");
  nodes ??= shared
    ? Promise.resolve(shared)
    : import(/* webpackIgnore: true */ /* turbopackIgnore: true */ "@switchyard/nodes");
  return nodes;
}

// The catalogue is static for the life of the process; build its JSON Schemas once.
let cached: ReturnType<NodesPackage["catalogue"]> | undefined;

export const catalogueRouter = router({
  /** Every node and trigger type: what the editor's palette and config forms are built from. */
  list: viewerProcedure.query(async () => {
    cached ??= (await loadNodes()).catalogue();
    return cached;
  }),

  /**
   * Human description and next fire times of a schedule, for the cron trigger's preview: the same
   * computation the scheduler runs, in the zone it runs in (the trigger's own, else the flow's).
   */
  describeCron: viewerProcedure
    .input(
      z.object({
        expression: z.string().min(1).max(200),
        timezone: z.string().max(100).optional(),
        flowTimezone: z.string().max(100).optional(),
      }),
    )
    .query(async ({ input }) => {
      const { CronConfigError, describeSchedule } = await loadRuntime();
      try {
        return describeSchedule(input.expression, input.timezone || input.flowTimezone || "UTC");
      } catch (err) {
        if (!(err instanceof CronConfigError)) throw err;
        throw new TRPCError({ code: "BAD_REQUEST", message: err.message, cause: err });
      }
    }),
});
