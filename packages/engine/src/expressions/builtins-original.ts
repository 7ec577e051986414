/** The host implementations of the JSONata built-ins we bound, to delegate to once inputs are checked. */
import jsonata from "jsonata";

export type Native = (this: unknown, ...args: unknown[]) => unknown;

const wrapped = [
  "string",
  "join",
  "split",
  "replace",
  "sort",
  "distinct",
  "length",
  "substring",
  "toMillis",
  "formatNumber",
  "formatInteger",
  "parseInteger",
  "fromMillis",
  "encodeUrl",
  "encodeUrlComponent",
  "uppercase",
  "lowercase",
];

// JSONata exposes its built-ins only through evaluation, which is async: fetched once, on first use.
let originals: Promise<Record<string, Native>> | undefined;
export function original(name: string): Promise<Native> {
  originals ??= (async () => {
    const out: Record<string, Native> = {};
    for (const n of wrapped) {
      const fn = (await jsonata(`$${n}`).evaluate({})) as { implementation: Native };
      out[n] = fn.implementation;
    }
    return out;
  })();
  return originals.then((o) => o[name]!);
}
