/**
 * `@switchyard/runtime/trpc`: the one set of procedures every door calls — the web app's tRPC client
 * (through Next's `/api/trpc` route, handed this module by the host process), and the CLI in-process.
 * The browser imports only `type AppRouter` from here.
 */
export { type Context, createContext } from "./context";
export { type LiveStart, liveSteps, type LiveStep, slimStep } from "./live-steps";
export type { PolicyPreview } from "./routers/policy-preview";
export { startJob } from "./routers/memory-jobs";
export { type AppRouter, appRouter, createCaller } from "./routers/app";
export { handleTrpcRequest } from "./fetch";
