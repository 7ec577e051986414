import type { Host } from "../host";
import { toApiError } from "./errors";
import { parseRouteInput } from "./router";
import { apiRoutes } from "./routes";

export interface RouteInput {
  params?: Record<string, string>;
  query?: Record<string, string | undefined>;
  body?: unknown;
}

/** The answer of a route as JSON: the same status and body an HTTP client would get. */
export interface RouteAnswer {
  status: number;
  body: unknown;
}

/**
 * Calls a route in-process, as the owner of the data dir: the CLI on a local data dir uses this, so
 * its answers (and refusals) are exactly the REST API's. No authentication: whoever can open the data
 * dir already controls everything in it.
 */
export async function invokeRoute(
  host: Host,
  operationId: string,
  input: RouteInput = {},
  signal = new AbortController().signal,
): Promise<RouteAnswer> {
  const route = apiRoutes.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`no API route ${operationId}`);
  const query = new URLSearchParams(
    Object.entries(input.query ?? {}).filter((e): e is [string, string] => e[1] !== undefined),
  );
  try {
    const parsed = parseRouteInput(route, { params: input.params ?? {}, query, body: input.body });
    const reply = await route.handler({ host, ...parsed, auth: null, signal });
    // Through JSON, so dates and undefined fields come out exactly as they would over HTTP.
    return { status: reply.status, body: JSON.parse(JSON.stringify(reply.body)) };
  } catch (e) {
    const apiError = toApiError(e);
    if (!apiError) throw e;
    const { code, message, details } = apiError;
    return {
      status: apiError.status,
      body: { error: { code, message, ...(details === undefined ? {} : { details }) } },
    };
  }
}
