import { z } from "zod";
import { CronConfigError, describeSchedule } from "../../triggers/cron";
import { router, TRPCError, viewerProcedure } from "../trpc";

export const catalogueRouter = router({
  /**
   * Every node and trigger type of this host, extra ones given to createHost included: what the editor's
   * palette and config forms are built from (the host builds it once).
   */
  list: viewerProcedure.query(({ ctx }) => ctx.host.catalogue()),

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
