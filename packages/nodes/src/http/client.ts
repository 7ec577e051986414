/**
 * The host's outbound HTTP client with the SSRF guard. It resolves DNS itself, checks every
 * resolved address, then connects to the checked address (pinned through the socket `lookup`
 * option, so a second DNS answer cannot swap in another IP), and follows redirects by hand so
 * each hop is checked again.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { HttpClient, HttpRequest, HttpResponse } from "@switchyard/engine";
import { NodeError } from "../errors";
import { isIpLiteral } from "./ssrf";
import { type ResolvedAddress, type UrlPolicy, vetHost, vetUrl } from "./vet";

/**
 * The HTTP client plus the same address guard for other protocols (SMTP): `vetHost` resolves a host
 * once, checks every address, and returns the one to connect to, so the caller pins it.
 */
export interface GuardedHttpClient extends HttpClient {
  /** `target` names the destination in a refusal, e.g. `smtp://mail.example.com:587`. */
  vetHost(hostname: string, target?: string): Promise<ResolvedAddress>;
}

export interface HttpClientOptions {
  /** Exact host names (as in the URL, e.g. "127.0.0.1", "localhost", "::1") the guard lets through. */
  allowHosts?: string[];
  /** DNS resolver; defaults to the system resolver. Tests pass a fake. */
  lookup?: (hostname: string) => Promise<ResolvedAddress[]>;
  /** Redirect hops followed before giving up (default 5). */
  maxRedirects?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

async function systemLookup(hostname: string): Promise<ResolvedAddress[]> {
  const all = await dnsLookup(hostname, { all: true, verbatim: true });
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

/** Answers every socket lookup with the one address we already checked. */
function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as unknown as LookupFunction;
}

export function createHttpClient(opts: HttpClientOptions = {}): GuardedHttpClient {
  const policy: UrlPolicy = { allowHosts: opts.allowHosts, lookup: opts.lookup ?? systemLookup };
  const maxRedirects = opts.maxRedirects ?? 5;
  // One keep-alive agent pair per client, so pooled sockets never cross clients with different policies.
  const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

  async function once(req: HttpRequest, url: URL, signal: AbortSignal): Promise<HttpResponse> {
    const target = await vetUrl(url, policy);
    const limit = req.maxResponseBytes ?? DEFAULT_MAX_BYTES;
    const isHttps = url.protocol === "https:";
    const mod = isHttps ? https : http;
    return new Promise<HttpResponse>((resolvePromise, reject) => {
      const request = mod.request(
        {
          protocol: url.protocol,
          hostname: url.hostname.replace(/^\[|\]$/g, ""),
          port: url.port || undefined,
          path: `${url.pathname}${url.search}`,
          method: req.method.toUpperCase(),
          headers: req.headers,
          lookup: pinnedLookup(target),
          agent: isHttps ? agents.https : agents.http,
          signal,
          // TLS still verifies the certificate against the host name, not the pinned IP.
          ...(url.protocol === "https:" && !isIpLiteral(url.hostname) ? { servername: url.hostname } : {}),
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size > limit) {
              res.destroy();
              request.destroy();
              reject(
                new NodeError("http_failed", `response from ${url.origin} is larger than ${limit} bytes`, {
                  retryable: false,
                }),
              );
              return;
            }
            chunks.push(chunk);
          });
          res.on("end", () => {
            const headers: Record<string, string> = {};
            for (const [k, v] of Object.entries(res.headers)) {
              if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v;
            }
            resolvePromise({
              status: res.statusCode ?? 0,
              headers,
              body: new Uint8Array(Buffer.concat(chunks)),
              url: url.toString(),
            });
          });
          res.on("error", reject);
        },
      );
      request.on("error", reject);
      if (req.body !== undefined) request.write(req.body);
      request.end();
    });
  }

  return {
    vetHost: (hostname, target) => vetHost(hostname, policy, target),
    async request(req: HttpRequest): Promise<HttpResponse> {
      let url: URL;
      try {
        url = new URL(req.url);
      } catch {
        throw new NodeError("input_invalid", `"${req.url}" is not a valid URL`, { retryable: false });
      }
      const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
      let current: HttpRequest = req;
      try {
        for (let hop = 0; ; hop++) {
          const res = await once(current, url, signal);
          const location = res.headers.location;
          if (!REDIRECTS.has(res.status) || !location) return res;
          if (hop >= maxRedirects) {
            throw new NodeError("http_failed", `more than ${maxRedirects} redirects from ${req.url}`, {
              retryable: false,
            });
          }
          const next = new URL(location, url);
          current = redirectRequest(current, res.status, url, next);
          url = next;
        }
      } catch (err) {
        if (err instanceof NodeError) throw err;
        if (timeout.aborted) {
          throw new NodeError("timeout", `request to ${url.origin} timed out after ${timeoutMs} ms`, {
            cause: err,
          });
        }
        if (req.signal?.aborted) throw new NodeError("cancelled", "request cancelled", { cause: err });
        throw new NodeError("http_failed", `request to ${url.origin} failed: ${(err as Error).message}`, {
          cause: err,
        });
      }
    },
  };
}

/**
 * Headers that may follow a redirect to another origin. Any other header (authorization, cookie,
 * proxy-authorization, x-api-key, a credential's custom header name, …) may carry a secret bound
 * to the first origin, so an allow-list rather than a deny-list: nothing unknown crosses.
 */
const CROSS_ORIGIN_SAFE = new Set([
  "accept",
  "accept-encoding",
  "accept-language",
  "cache-control",
  "content-language",
  "content-type",
  "content-length",
  "pragma",
  "user-agent",
]);

/** The request for the next hop: 303 (and 301/302 after POST) become GET; secrets stay on their origin. */
function redirectRequest(req: HttpRequest, status: number, from: URL, to: URL): HttpRequest {
  const toGet = status === 303 || ((status === 301 || status === 302) && req.method.toUpperCase() === "POST");
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers ?? {})) {
    const name = k.toLowerCase();
    if (from.origin !== to.origin && !CROSS_ORIGIN_SAFE.has(name)) continue;
    if (toGet && (name === "content-type" || name === "content-length")) continue;
    if (name === "host") continue;
    headers[k] = v;
  }
  return {
    ...req,
    method: toGet ? "GET" : req.method,
    headers,
    body: toGet ? undefined : req.body,
    url: to.toString(),
  };
}
