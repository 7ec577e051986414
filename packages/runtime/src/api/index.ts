import type { Host } from "../host";
import { createApiRouter } from "./router";
import { apiRoutes } from "./routes";

export { ApiError, type ApiErrorCode, type ApiProblem } from "./errors";
export { checkFlowFile, definitionOf, type FlowFile, flowFile, flowFileJsonSchema } from "./flow-file";
export { invokeRoute, type RouteAnswer, type RouteInput } from "./invoke";
export { buildOpenApiDocument } from "./openapi";
export { defineRoute, type Route } from "./route";
export { apiPrefix, createApiRouter, parseRouteInput } from "./router";
export { apiRoutes };

/** `/api/v1/*` for `createHttpServer`'s `api` route. */
export function createApiHandler(host: Host, opts: { maxBodyBytes?: number } = {}) {
  return createApiRouter(host, apiRoutes, opts);
}
