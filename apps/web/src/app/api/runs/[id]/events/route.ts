import { isFinishedRunStatus } from "@switchyard/contracts/runs";
import type { RunProgressEvent } from "@switchyard/engine";
import type { RunFinished } from "@switchyard/runtime";
import { requireHost } from "@/server/host";
import { loadTrpc } from "@/server/trpc";

type TrpcPackage = Awaited<ReturnType<typeof loadTrpc>>;

export const dynamic = "force-dynamic";

const HEARTBEAT_MS = 15_000;

const problem = (status: number, code: string, message: string) =>
  Response.json({ error: { code, message } }, { status });

/** What the page needs from a progress event: which step moved and how. Payloads stay out of the stream. */
function slim(e: RunProgressEvent, slimStep: TrpcPackage["slimStep"]) {
  if (e.type === "step.started")
    return { type: e.type, nodeId: e.nodeId, visit: e.visit, attempt: e.attempt, at: e.at };
  if (e.type === "step.finished") return { type: e.type, step: slimStep(e) };
  return { type: e.type, status: e.result.status };
}

/**
 * Live progress of one run as Server-Sent Events: a `snapshot` of the steps in flight (and finished ones
 * the store may still buffer), `step` events while it runs, then `finished` and the stream ends. Authenticated like tRPC (session cookie or API key with the read scope).
 */
export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const host = requireHost();
  const { createContext, liveSteps, slimStep } = await loadTrpc();
  const ctx = await createContext(host, req, new Headers());
  if (!ctx.auth) return problem(401, "unauthorized", "sign in first");
  if (!ctx.auth.scopes.includes("read"))
    return problem(403, "forbidden", "this API key lacks the read scope");
  const { id } = await params;
  const run = await host.runs.trace(id);
  if (!run) return problem(404, "not_found", `run ${id} not found`);

  const events = host.services.events;
  const tracker = liveSteps(events);
  const encoder = new TextEncoder();
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const send = (event: string, data: unknown) => {
        if (!closed) controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
      };
      const close = () => {
        if (closed) return;
        closed = true;
        cleanup();
        controller.close();
      };
      const onEvent = (e: RunProgressEvent) => {
        if (e.runId === id && e.type !== "run.finished") send("step", slim(e, slimStep));
      };
      const onFinished = (e: RunFinished) => {
        if (e.runId !== id) return;
        send("finished", { status: e.status });
        close();
      };
      const beat = setInterval(
        () => !closed && controller.enqueue(encoder.encode(": keep-alive\n\n")),
        HEARTBEAT_MS,
      );
      cleanup = () => {
        clearInterval(beat);
        events.off("run.event", onEvent);
        events.off("run.finished", onFinished);
      };
      events.on("run.event", onEvent);
      events.on("run.finished", onFinished);
      req.signal.addEventListener("abort", close, { once: true });
      send("hello", { runId: id, status: run.status });
      send("snapshot", tracker.snapshot(id));
      // Read the status again now that we listen: a run that finished in between must not leave us waiting.
      void host.runs.trace(id).then((now) => {
        if (now && isFinishedRunStatus(now.status)) {
          send("finished", { status: now.status });
          close();
        }
      }, close);
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
}
