/**
 * How deep JSON from outside (webhook bodies, HTTP responses) may nest. Storing, tracing and evaluating a
 * value walk it recursively: past ≈ 5 000 levels V8 runs out of stack, and the run failed with a bare
 * "Maximum call stack size exceeded" that named neither the node nor the cause.
 */
export const MAX_JSON_DEPTH = 1000;

/**
 * Byte (or UTF-16 unit) offset where valid JSON text nests past `limit`, or -1. Texts shorter than two
 * characters per level cannot, so they are not scanned: the check costs nothing for ordinary payloads.
 */
export function jsonNestingPastLimit(text: string | Uint8Array, limit = MAX_JSON_DEPTH): number {
  if (text.length <= 2 * limit) return -1;
  const at = typeof text === "string" ? (i: number) => text.charCodeAt(i) : (i: number) => text[i]!;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = at(i);
    if (inString) {
      // A backslash escapes the next character, so an escaped quote does not end the string.
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return i;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return -1;
}
