const base = new URL("http://switchyard.invalid/");

/**
 * Only same-site paths: `//evil.example`, `https://…` and `/\t/evil.example` (the URL parser drops tabs and
 * newlines and reads `\` as `/`) would make /signin?next= an open redirect. So the value is parsed the way
 * the browser will, and only a path that stays on our origin and cannot be read as `//host` comes back.
 */
export function safeNext(next: string | null | undefined): string {
  if (!next?.startsWith("/") || /[\\\u0000-\u001f\u007f]/.test(next)) return "/";
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
