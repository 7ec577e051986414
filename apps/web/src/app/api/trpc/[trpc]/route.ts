import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { createContext } from "@/server/auth/context";
import { requireHost } from "@/server/host";
import { appRouter } from "@/server/routers/app";

export const dynamic = "force-dynamic";

function handler(req: Request) {
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: ({ resHeaders }) => createContext(requireHost(), req, resHeaders),
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR")
        requireHost().log.error({ err: error.cause ?? error, path }, "tRPC procedure failed");
    },
  });
}

export { handler as GET, handler as POST };
