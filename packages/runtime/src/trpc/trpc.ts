import { initTRPC, TRPCError } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import { ZodError } from "zod";
import type { Role } from "../auth";
import { AuthError } from "../auth/errors";
import { errorCodeOf, type HostError, trpcCodeOf } from "../errors/codes";
import type { Context } from "./context";

export type { Context } from "./context";

/**
 * What a REST procedure adds to its `openapi` meta (method, path, summary: trpc-to-openapi's): the
 * success status when it is not 200, and the audit action its successful calls record.
 */
export interface RestMeta {
  /** 201 for a create, 202 for accepted work; a function when the outcome decides (`?wait`: 200 or 202). */
  status?: 201 | 202 | ((output: unknown) => 200 | 202);
  /** Audit action of a write (`flow.created`); required on every REST write (a test checks). */
  audit?: string;
}

export type Meta = OpenApiMeta<{ rest?: RestMeta }>;

/** Field-level issues for the form that caused the error: zod's, or the auth service's named field. */
function issuesOf(cause: unknown): { path: string; message: string }[] | undefined {
  if (cause instanceof ZodError)
    return cause.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
  if (cause instanceof AuthError && cause.field) return [{ path: cause.field, message: cause.message }];
  return undefined;
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error }) {
      // Field-level problems go to the form that caused them; never leak stacks to the browser.
      const retryAfterMs = error.cause instanceof AuthError ? error.cause.retryAfterMs : undefined;
      return {
        ...shape,
        data: { ...shape.data, stack: undefined, issues: issuesOf(error.cause), retryAfterMs },
      };
    },
  });

/**
 * A host error (it carries its edge code) becomes the tRPC error of that code, on every procedure:
 * procedures throw what the host throws and never map errors themselves.
 */
const hostErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (result.ok) return result;
  const code = errorCodeOf(result.error.cause);
  if (!code) return result;
  const cause = result.error.cause as HostError;
  return { ...result, error: new TRPCError({ code: trpcCodeOf(code), message: cause.message, cause }) };
});

/**
 * CSRF: a browser write must come from our own origin, addressed to a host we answer to (DNS rebinding).
 * API-key requests carry no ambient credential, so they are exempt; sign-in and setup are not (login CSRF).
 */
const sameOriginWrites = t.middleware(({ ctx, type, next }) => {
  if (type === "mutation" && ctx.auth?.via !== "apikey" && !ctx.sameOrigin) {
    throw new TRPCError({ code: "FORBIDDEN", message: ctx.hostRefusal ?? "cross-site request refused" });
  }
  return next();
});

const base = t.procedure.use(hostErrors).use(sameOriginWrites);

/** Only for `auth.status`, `auth.signIn` and `auth.setup`; a test fails if anything else uses it. */
export const publicProcedure = base;

/** Any signed-in user (or API key). Queries need the `read` scope, mutations `write`. */
export const viewerProcedure = base.use(({ ctx, type, next }) => {
  if (!ctx.auth) throw new TRPCError({ code: "UNAUTHORIZED", message: "sign in first" });
  const scope = type === "query" ? "read" : "write";
  if (!ctx.auth.scopes.includes(scope))
    throw new TRPCError({ code: "FORBIDDEN", message: `this API key lacks the ${scope} scope` });
  return next({ ctx: { auth: ctx.auth, user: ctx.auth.user } });
});

const atLeast = (allowed: readonly Role[], what: string) =>
  viewerProcedure.use(({ ctx, next }) => {
    if (!allowed.includes(ctx.user.role))
      throw new TRPCError({ code: "FORBIDDEN", message: `only ${what} can do this` });
    return next();
  });

/** Owners and editors: build and run flows. */
export const editorProcedure = atLeast(["owner", "editor"], "owners and editors");
/** Owners: users, other people's API keys, the audit log. */
export const ownerProcedure = atLeast(["owner"], "owners");

/** What a REST write touched: the run or item it made, else the flow or run it names. */
function auditTarget(input: unknown, output: unknown): string | null {
  const o = (output ?? {}) as { runId?: unknown; id?: unknown; flow?: { id?: unknown } };
  const candidate = o.runId ?? o.flow?.id ?? o.id ?? (input as { id?: unknown } | undefined)?.id;
  return typeof candidate === "string" ? candidate : null;
}

/**
 * REST writes: an editor's procedure whose every success lands in the audit log under the caller, with
 * the API key (or session) it came with and the operation — as the UI's procedures record their own.
 */
export const auditedEditorProcedure = editorProcedure.use(async ({ ctx, meta, getRawInput, next }) => {
  const result = await next();
  const action = meta?.rest?.audit;
  if (!result.ok || !action) return result;
  const input = await getRawInput();
  const target = auditTarget(input, result.data);
  const named = (input as { id?: unknown } | undefined)?.id;
  const via =
    ctx.auth.via === "local"
      ? { via: "cli" }
      : { via: "api", ...(ctx.auth.apiKeyId ? { apiKeyId: ctx.auth.apiKeyId } : { session: true }) };
  await ctx.host.auth.audit(ctx.user.id, action, target, {
    ...via,
    operation: meta?.openapi?.operationId,
    ...(typeof named === "string" && named !== target ? { of: named } : {}),
  });
  return result;
});

/** Account management needs a password session: a leaked API key must not mint keys or users. */
export const requireSession = t.middleware(({ ctx, next }) => {
  if (ctx.auth?.via !== "session")
    throw new TRPCError({ code: "FORBIDDEN", message: "sign in with a password to manage accounts" });
  return next();
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export { TRPCError };
