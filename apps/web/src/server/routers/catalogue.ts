import { catalogue, describeCron } from "@switchyard/nodes";
import { z } from "zod";
import { router, TRPCError, viewerProcedure } from "../trpc";

// The catalogue is static for the life of the process; build its JSON Schemas once.
let cached: ReturnType<typeof catalogue> | undefined;

export const catalogueRouter = router({
  /** Every node and trigger type: what the editor's palette and config forms are built from. */
  list: viewerProcedure.query(() => {
    cached ??= catalogue();
    return cached;
  }),

  /** Human description and next fire times of a cron expression, for the schedule trigger's preview. */
  describeCron: viewerProcedure
    .input(z.object({ expression: z.string().min(1).max(200), timezone: z.string().max(100).optional() }))
    .query(({ input }) => {
      try {
        return describeCron(input.expression, input.timezone);
      } catch (err) {
        // Only the user's expression can be wrong here (a pure function of it): always a 400.
        throw new TRPCError({ code: "BAD_REQUEST", message: (err as Error).message, cause: err });
      }
    }),
});
