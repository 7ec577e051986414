import { createCallerFactory, router } from "../trpc";
import { agentRouter } from "./agent";
import { apiKeyRouter } from "./apikey";
import { auditRouter } from "./audit";
import { authRouter } from "./auth";
import { catalogueRouter } from "./catalogue";
import { credentialRouter } from "./credential";
import { flowRouter } from "./flow";
import { flowApiRouter } from "./flow-api";
import { templateRouter } from "./template";
import { memoryRouter } from "./memory";
import { memoryApiRouter } from "./memory-api";
import { runRouter } from "./run";
import { runApiRouter } from "./run-api";
import { schemaApiRouter } from "./schema-api";
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
  template: templateRouter,
  credential: credentialRouter,
  settings: settingsRouter,
  /** The REST API (`/api/v1`, each procedure with its `openapi` meta); same middlewares as the UI's. */
  api: router({ flows: flowApiRouter, runs: runApiRouter, memory: memoryApiRouter, schema: schemaApiRouter }),
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
