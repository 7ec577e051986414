import { createCallerFactory, router } from "../trpc";
import { flowRouter } from "./flow";
import { runRouter } from "./run";
import { systemRouter } from "./system";

export const appRouter = router({
  flow: flowRouter,
  run: runRouter,
  system: systemRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
