import { getCurrentHost } from "@switchyard/runtime/host-registry";
import { type NextRequest, NextResponse } from "next/server";
import { safeNext } from "@/server/auth/safe-next";

/**
 * Page gate: no user yet → /setup; not signed in → /signin?next=…; signed in → away from both.
 * It decides with the live session (Node.js proxy runs in the process that owns the host), but it is
 * only the page layer: every tRPC procedure checks authentication and role on its own.
 */
export async function proxy(req: NextRequest) {
  const host = getCurrentHost();
  // Without the runtime (a bare `next dev`) there is nothing to check against; tRPC will refuse anyway.
  if (!host) return NextResponse.next();
  const { pathname, search } = req.nextUrl;
  const to = (path: string) => NextResponse.redirect(new URL(path, req.url));

  if (!(await host.auth.hasUsers())) return pathname === "/setup" ? NextResponse.next() : to("/setup");

  const token = req.cookies.get(host.auth.http.sessionCookieName)?.value;
  const session = token ? await host.auth.session(token) : null;
  if (pathname === "/setup" || pathname === "/signin") {
    if (!session) return pathname === "/signin" ? NextResponse.next() : to("/signin");
    return to(safeNext(req.nextUrl.searchParams.get("next")));
  }
  if (session) return NextResponse.next();

  const res = to(`/signin?next=${encodeURIComponent(pathname + search)}`);
  // A cookie that no longer names a session (signed out elsewhere, expired) is dropped.
  if (token) res.cookies.delete(host.auth.http.sessionCookieName);
  return res;
}

export const config = {
  // Pages only: API routes answer for themselves (tRPC with 401/403, health is public), assets are public.
  matcher: [
    "/((?!api/|_next/static|_next/image|favicon.ico|.*\\.(?:png|jpg|jpeg|gif|svg|ico|webp|woff2?|css|js|map|txt)$).*)",
  ],
};
