import { requireHost } from "@/server/host";
import { loadTrpc } from "@/server/trpc";

export const dynamic = "force-dynamic";

async function handler(req: Request) {
  const { handleTrpcRequest } = await loadTrpc();
  return handleTrpcRequest(requireHost(), req);
}

export { handler as GET, handler as POST };
