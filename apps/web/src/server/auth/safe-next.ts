const base = new URL("http://switchyard.invalid/");

/** A backslash or a control character (tabs and newlines included): never part of a path we produce. */
const suspicious = (s: string) =>
  [...s].some((c) => c === "\\" || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/**
 * Only same-site paths: `//evil.example`, `https://…` and `/\t/evil.example` (the URL parser drops tabs and
 * newlines and reads `\` as `/`) would make /signin?next= an open redirect. So the value is parsed the way
 * the browser will, and only a path that stays on our origin and cannot be read as `//host` comes back.
 */
export function safeNext(next: string | null | undefined): string {
  if (!next?.startsWith("/") || suspicious(next)) return "/";
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return "/";
  }
  const path = url.pathname + url.search + url.hash;
  if (url.origin !== base.origin || !path.startsWith("/") || path.startsWith("//")) return "/";
  return path;
}
