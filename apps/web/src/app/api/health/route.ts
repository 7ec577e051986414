import { getCurrentHost } from "@switchyard/runtime/host-registry";

export const dynamic = "force-dynamic";

/** Liveness + database check for load balancers and `curl`. */
export function GET() {
  const host = getCurrentHost();
  if (!host) return Response.json({ status: "error", version: null, db: "unavailable" }, { status: 503 });
  const db = host.dbHealth();
  return Response.json(
    { status: db === "ok" ? "ok" : "error", version: host.version, db },
    { status: db === "ok" ? 200 : 503 },
  );
}
