/** Only same-site paths: `//evil.example` and `https://…` would make /signin?next= an open redirect. */
export function safeNext(next: string | null | undefined): string {
  if (!next?.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  return next;
}
