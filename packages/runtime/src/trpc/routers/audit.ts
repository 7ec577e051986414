import { z } from "zod";
import { ownerProcedure, router } from "../trpc";

/** The audit log, newest first; owners only. */
export const auditRouter = router({
  list: ownerProcedure
    .input(
      z
        .object({
          cursor: z.string().max(100).optional(),
          limit: z.number().int().min(1).max(200).optional(),
          action: z.string().max(100).optional(),
        })
        .optional(),
    )
    .query(({ ctx, input }) => ctx.host.auth.listAudit(input ?? {})),
});
