/**
 * The Code node (JavaScript). Ours runs a function body over `items` (the input JSON list) and takes
 * an object or a list of objects back; n8n's gives `$input`, `items` (`{ json }` objects), `$json` and
 * expects `{ json }` objects. The imported code runs inside a small adapter that provides n8n's shapes,
 * so the user's code stays as written. What the sandbox cannot offer is reported.
 */
import type { Mapper } from "./types";

const ALL_ITEMS = `// Imported from n8n: this adapter gives the code n8n's $input / items shapes.
const __n8n = items.map((json) => ({ json }));
const $input = { all: () => __n8n, first: () => __n8n[0], last: () => __n8n[__n8n.length - 1], item: __n8n[0] };
const __out = await (async (items) => {
/*CODE*/
})(__n8n);
return (Array.isArray(__out) ? __out : [__out]).map((r) => (r && typeof r === "object" && "json" in r ? r.json : r));`;

const EACH_ITEM = `// Imported from n8n: this adapter runs the code once per item with n8n's $json / $input.item.
const __all = items.map((json) => ({ json }));
const __results = [];
for (let $itemIndex = 0; $itemIndex < __all.length; $itemIndex++) {
  const item = __all[$itemIndex];
  const $json = item.json;
  const $input = { item, all: () => __all, first: () => __all[0], last: () => __all[__all.length - 1] };
  const __out = await (async () => {
/*CODE*/
  })();
  if (__out !== undefined && __out !== null) __results.push(__out && typeof __out === "object" && "json" in __out ? __out.json : __out);
}
return __results;`;

/** n8n globals the sandbox has no value for, with what they are. */
const UNAVAILABLE: [RegExp, string][] = [
  [/\$\(|\$node\b/, "other nodes' data ($('Node'), $node)"],
  [/\$env\b|\$vars\b/, "environment variables ($env, $vars)"],
  [/\$execution\b|\$workflow\b|\$prevNode\b/, "execution and workflow metadata"],
  [/\$now\b|\$today\b|DateTime\b|\$jmespath\b/, "Luxon dates and n8n helpers ($now, DateTime, $jmespath)"],
  [/\bthis\.helpers\b|\$http\b|\bfetch\(/, "HTTP helpers (the sandbox has no network)"],
  [/\brequire\(/, "require() (the sandbox loads no modules)"],
  [/\bbinary\b/, "binary data"],
];

export const code: Mapper = (ctx) => {
  const p = ctx.params;
  const language = typeof p.language === "string" ? p.language : "javaScript";
  if (language !== "javaScript") return { unsupported: `Code in ${language} (only JavaScript runs here)` };
  const source =
    typeof p.jsCode === "string" ? p.jsCode : typeof p.functionCode === "string" ? p.functionCode : "";
  if (!source.trim()) return { type: "flow.noop", config: {} };
  for (const [pattern, what] of UNAVAILABLE)
    if (pattern.test(source))
      ctx.report.problem(
        "expression_untranslated",
        ctx.node,
        "jsCode",
        `the code uses ${what}, which the sandbox does not provide; rewrite that part`,
      );
  const template = p.mode === "runOnceForEachItem" ? EACH_ITEM : ALL_ITEMS;
  return { type: "code", config: { code: template.replace("/*CODE*/", source) } };
};
