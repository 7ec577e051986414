import { catalogue } from "@switchyard/nodes";
import { z } from "zod";
import { CronConfigError, describeSchedule } from "../../triggers/cron";
import { router, TRPCError, viewerProcedure } from "../trpc";

// The catalogue is static for the life of the process; build its JSON Schemas once.
let cached: ReturnType<typeof catalogue> | undefined;

export const catalogueRouter = router({
  /** Every node and trigger type: what the editor's palette and config forms are built from. */
  list: viewerProcedure.query(() => {
    cached ??= catalogue();
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
      try {
        return describeSchedule(input.expression, input.timezone || input.flowTimezone || "UTC");
      } catch (err) {
        if (!(err instanceof CronConfigError)) throw err;
        throw new TRPCError({ code: "BAD_REQUEST", message: err.message, cause: err });
      }
    }),
});
