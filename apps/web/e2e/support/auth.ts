import type { BrowserContext, Page } from "@playwright/test";

/** The owner every e2e server gets unless a test asks for a fresh, un-set-up instance. */
export const e2eOwner = { email: "owner@example.com", password: "e2e owner password" };

const sessions = new Map<string, string>();

/** The `sy_session=…` cookie of the owner signed in by startServer for this server URL. */
export function sessionFor(url: string): string | undefined {
  return sessions.get(url);
}

async function call(
  url: string,
  procedure: string,
  input: unknown,
): Promise<{ status: number; body: unknown; cookie?: string }> {
  const res = await fetch(`${url}/api/trpc/${procedure}`, {
    method: "POST",
    // Same-origin, as the browser sends it: cookie-authenticated writes without it are refused (CSRF).
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify(input),
  });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .find((c) => c.startsWith("sy_session=") && c !== "sy_session=");
  return { status: res.status, body: await res.json(), cookie };
}

/** Creates the owner on a fresh instance, or signs them in on one that has it; remembers the cookie. */
export async function ensureOwner(url: string, owner = e2eOwner): Promise<string> {
  const status = (await (await fetch(`${url}/api/trpc/auth.status`)).json()) as {
    result: { data: { needsSetup: boolean } };
  };
  const r = await call(url, status.result.data.needsSetup ? "auth.setup" : "auth.signIn", owner);
  if (!r.cookie) throw new Error(`could not sign in the e2e owner (${r.status}): ${JSON.stringify(r.body)}`);
  sessions.set(url, r.cookie);
  return r.cookie;
}

/** Puts a session cookie into the browser, so pages open signed in. */
export async function useSession(
  target: Page | BrowserContext,
  url: string,
  cookie = sessionFor(url),
): Promise<void> {
  if (!cookie) throw new Error(`no session for ${url}; start the server with the owner set up`);
  const context = "context" in target ? target.context() : target;
  const [name, value] = cookie.split("=") as [string, string];
  await context.addCookies([{ name, value, url, httpOnly: true, sameSite: "Lax" }]);
}
