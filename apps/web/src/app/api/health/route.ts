import { getCurrentHost } from "@switchyard/runtime/host-registry";

export const dynamic = "force-dynamic";

/**
 * Liveness + database check for load balancers and `curl` (the runtime's HTTP server answers
 * /api/health itself; this route serves the same report when Next is reached directly).
 */
export async function GET() {
  const host = getCurrentHost();
  if (!host) return Response.json({ status: "error", version: null, db: "unavailable" }, { status: 503 });
  const health = await host.health();
  return Response.json(health, { status: health.status === "ok" ? 200 : 503 });
}
