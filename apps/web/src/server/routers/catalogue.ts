import { getSharedPackage } from "@switchyard/runtime/host-registry";
import { z } from "zod";
import { router, TRPCError, viewerProcedure } from "../trpc";

type NodesPackage = typeof import("@switchyard/nodes");

/**
 * The nodes package is loaded at run time, not bundled: its code sandbox resolves a wasm file through
 * `import.meta.url`, which bundling breaks. The host process hands over the instance it runs (see
 * host-registry); vitest loads the package as source.
 */
let nodes: Promise<NodesPackage> | undefined;
function loadNodes(): Promise<NodesPackage> {
  const shared = getSharedPackage<NodesPackage>("nodes");
  nodes ??= shared ? Promise.resolve(shared) : import(/* webpackIgnore: true */ /* turbopackIgnore: true */ "@switchyard/nodes");
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

  /** Human description and next fire times of a cron expression, for the schedule trigger's preview. */
  describeCron: viewerProcedure
    .input(z.object({ expression: z.string().min(1).max(200), timezone: z.string().max(100).optional() }))
    .query(async ({ input }) => {
      const { describeCron } = await loadNodes();
      try {
        return describeCron(input.expression, input.timezone);
      } catch (err) {
        // Only the user's expression can be wrong here (a pure function of it): always a 400.
        throw new TRPCError({ code: "BAD_REQUEST", message: (err as Error).message, cause: err });
      }
    }),
});
