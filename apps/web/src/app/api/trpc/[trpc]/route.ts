import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "@/server/routers/app";
import { requireHost } from "@/server/host";

export const dynamic = "force-dynamic";

function handler(req: Request) {
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: () => ({ host: requireHost() }),
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR") requireHost().log.error({ err: error.cause ?? error, path }, "tRPC procedure failed");
    },
  });
}

export { handler as GET, handler as POST };
