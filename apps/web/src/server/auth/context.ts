import type { Host, RequestAuth } from "@switchyard/runtime";

/** Everything a procedure may know about the request, resolved once per HTTP request. */
export interface Context {
  host: Host;
  /** Null for an anonymous request (or one with an invalid cookie or key). */
  auth: RequestAuth | null;
  /** A cookie-authenticated write is only accepted from our own pages (CSRF). */
  sameOrigin: boolean;
  /** Session cookies get `Secure` when the browser reached us over https. */
  secure: boolean;
  /** Client address for sign-in throttling. */
  ip: string;
  /** Response headers: sign-in and sign-out append `Set-Cookie` here. */
  resHeaders: Headers;
}

export async function createContext(host: Host, req: Request, resHeaders: Headers): Promise<Context> {
  const { http } = host.auth;
  return {
    host,
    auth: await host.auth.authenticateRequest(req.headers),
    sameOrigin: http.isSameOrigin(req.headers, host.config.baseUrl),
    secure: http.isSecureRequest(req.headers, host.config.baseUrl),
    ip: http.clientIp(req.headers),
    resHeaders,
  };
}
