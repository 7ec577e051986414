import { z } from "zod";
import { viewerProcedure, router } from "../trpc";

export const runStatus = z.enum(["queued", "running", "waiting", "succeeded", "failed", "cancelled", "timed_out"]);
export const runChannel = z.enum(["manual", "webhook", "email", "cron", "api", "subflow"]);

export const runRouter = router({
  list: viewerProcedure
    .input(
      z
        .object({
          flowId: z.string().optional(),
          status: runStatus.optional(),
          channel: runChannel.optional(),
          limit: z.number().int().min(1).max(500).optional(),
          cursor: z.string().optional(),
        })
        .optional(),
    )
    .query(({ ctx, input }) => ctx.host.runs.list(input ?? {})),
});
