import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import type { Host } from "../host";
import { createContext } from "./context";
import { appRouter } from "./routers/app";

/** Answers a tRPC request at `endpoint` (the web app's `/api/trpc` route) from the host's one router. */
export function handleTrpcRequest(host: Host, req: Request, endpoint = "/api/trpc"): Promise<Response> {
  return fetchRequestHandler({
    endpoint,
    req,
    router: appRouter,
    createContext: ({ resHeaders }) => createContext(host, req, resHeaders),
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR")
        host.log.error({ err: error.cause ?? error, path }, "tRPC procedure failed");
    },
  });
}
