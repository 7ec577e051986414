import type { RequestAuth } from "../auth";
import type { HeaderSource } from "../auth/request";
import type { Host } from "../host";

/** Everything a procedure may know about the request, resolved once per HTTP request. */
export interface Context {
  host: Host;
  /** Null for an anonymous request (or one with an invalid cookie or key). */
  auth: RequestAuth | null;
  /** A cookie-authenticated write is only accepted from our own pages (CSRF). */
  sameOrigin: boolean;
  /** Why the request's Host is refused (DNS rebinding), or null when we answer to it. */
  hostRefusal: string | null;
  /** Session cookies get `Secure` when the browser reached us over https. */
  secure: boolean;
  /** Client address for sign-in throttling. */
  ip: string;
  /** A browser on this machine (loopback address and host): first-run setup needs no token. */
  localClient: boolean;
  /** Response headers: sign-in and sign-out append `Set-Cookie` here. */
  resHeaders: Headers;
  /** Aborted when the client goes away (a REST `?wait=true` stops waiting). */
  signal?: AbortSignal;
}

/** The context of a request with these headers (a fetch `Request`'s, or node's `IncomingMessage` headers). */
export async function createContext(
  host: Host,
  req: { headers: HeaderSource },
  resHeaders: Headers,
  /** Already authenticated (REST checks credentials before it reads a body): not looked up twice. */
  known?: { auth: RequestAuth | null; signal?: AbortSignal },
): Promise<Context> {
  const { http } = host.auth;
  const addressed = http.requestHost(req.headers, host.config);
  return {
    host,
    auth: known ? known.auth : await host.auth.authenticateRequest(req.headers),
    sameOrigin: http.isSameOrigin(req.headers, host.config),
    hostRefusal: http.isAllowedHost(addressed, host.config) ? null : http.hostRefusal(addressed),
    secure: http.isSecureRequest(req.headers, host.config.baseUrl),
    ip: http.clientIp(req.headers),
    localClient: http.isLocalClient(req.headers, host.config),
    resHeaders,
    signal: known?.signal,
  };
}
