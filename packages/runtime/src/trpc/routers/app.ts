import { createCallerFactory, router } from "../trpc";
import { agentRouter } from "./agent";
import { apiKeyRouter } from "./apikey";
import { auditRouter } from "./audit";
import { authRouter } from "./auth";
import { catalogueRouter } from "./catalogue";
import { credentialRouter } from "./credential";
import { flowRouter } from "./flow";
import { memoryRouter } from "./memory";
import { runRouter } from "./run";
import { settingsRouter } from "./settings";
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
  agent: agentRouter,
  credential: credentialRouter,
  settings: settingsRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
