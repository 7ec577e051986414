import type { Host } from "@switchyard/runtime";
import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";

export interface Context {
  host: Host;
}

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    // Field-level problems go to the form that caused them; never leak stacks to the browser.
    const zod = error.cause instanceof ZodError ? error.cause.issues.map((i) => ({ path: i.path.join("."), message: i.message })) : undefined;
    return { ...shape, data: { ...shape.data, stack: undefined, issues: zod } };
  },
});

export const router = t.router;
export const publicProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;
export { TRPCError };
