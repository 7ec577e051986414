import { createCallerFactory, router } from "../trpc";
import { apiKeyRouter } from "./apikey";
import { auditRouter } from "./audit";
import { authRouter } from "./auth";
import { catalogueRouter } from "./catalogue";
import { flowRouter } from "./flow";
import { memoryRouter } from "./memory";
import { runRouter } from "./run";
import { systemRouter } from "./system";
import { userRouter } from "./user";

export const appRouter = router({
  auth: authRouter,
  user: userRouter,
  apiKey: apiKeyRouter,
  audit: auditRouter,
  catalogue: catalogueRouter,
  flow: flowRouter,
  memory: memoryRouter,
  run: runRouter,
  system: systemRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
