"use client";

import { createContext, memo, useContext, useDeferredValue, useMemo, useState } from "react";
import { childPath, searchJson } from "./json-search";

/** Children shown per "page" of a big array or object: nothing renders until it is opened and asked for. */
const PAGE = 100;
const LONG_STRING = 400;

interface ViewState {
  open: Set<string>;
  hits: Set<string>;
}
const ViewContext = createContext<ViewState>({ open: new Set(), hits: new Set() });

async function copy(value: unknown) {
  await navigator.clipboard?.writeText(typeof value === "string" ? value : JSON.stringify(value, null, 2));
}

function isTruncated(
  v: unknown,
): v is { __truncated: true; originalChars: number; atLeast?: boolean; preview: string } {
  return typeof v === "object" && v !== null && (v as { __truncated?: unknown }).__truncated === true;
}

function TruncatedNotice({
  value,
}: {
  value: { originalChars: number; atLeast?: boolean; preview: string };
}) {
  return (
    <div
      data-testid="json-truncated"
      className="rounded-md border border-amber-300 bg-amber-50 p-2 text-xs dark:border-amber-800 dark:bg-amber-950"
    >
      <p className="font-medium text-amber-900 dark:text-amber-200">
        Truncated: this field was {value.atLeast ? "more than " : ""}
        {value.originalChars.toLocaleString()} characters (over 4 MiB) and was not stored in full. First{" "}
        {value.preview.length.toLocaleString()} characters:
      </p>
      <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-all font-mono text-[11px]">
        {value.preview}
      </pre>
    </div>
  );
}

function Scalar({ v, hit }: { v: unknown; hit: boolean }) {
  const [full, setFull] = useState(false);
  const mark = hit ? "bg-yellow-200 dark:bg-yellow-800" : "";
  if (typeof v === "string") {
    const long = v.length > LONG_STRING && !full;
    return (
      <span className={`break-all text-emerald-700 dark:text-emerald-300 ${mark}`}>
        "{long ? v.slice(0, LONG_STRING) : v}
        {long ? (
          <button type="button" className="ml-1 text-brand-600 underline" onClick={() => setFull(true)}>
            … show all {v.length.toLocaleString()} chars
          </button>
        ) : null}
        "
      </span>
    );
  }
  const tone =
    typeof v === "number" ? "text-sky-700 dark:text-sky-300" : "text-purple-700 dark:text-purple-300";
  return <span className={`${tone} ${mark}`}>{v === null ? "null" : String(v)}</span>;
}

const Entry = memo(function Entry({
  name,
  v,
  path,
  depth,
}: {
  name: string | null;
  v: unknown;
  path: string;
  depth: number;
}) {
  const view = useContext(ViewContext);
  const container = typeof v === "object" && v !== null;
  const [opened, setOpened] = useState(depth < 3); // root → items → item → json
  const [shown, setShown] = useState(PAGE);
  const open = opened || view.open.has(path);
  const hit = view.hits.has(path);
  const label =
    name === null ? null : (
      <span
        className={`text-slate-600 dark:text-slate-300 ${hit && container ? "bg-yellow-200 dark:bg-yellow-800" : ""}`}
      >
        {name}:{" "}
      </span>
    );
  if (!container) {
    return (
      <div className="pl-4">
        {label}
        <Scalar v={v} hit={hit} />
      </div>
    );
  }
  if (isTruncated(v)) {
    return (
      <div className="pl-4">
        {label}
        <TruncatedNotice value={v} />
      </div>
    );
  }
  const isArray = Array.isArray(v);
  const keys = isArray ? null : Object.keys(v);
  const size = isArray ? v.length : keys!.length;
  const summary = isArray
    ? `[${size} item${size === 1 ? "" : "s"}]`
    : `{${size} key${size === 1 ? "" : "s"}}`;
  return (
    <div className="group pl-4">
      <button
        type="button"
        aria-expanded={open}
        className="-ml-4 w-4 text-slate-400"
        onClick={() => setOpened(!open)}
      >
        {open ? "▾" : "▸"}
      </button>
      {label}
      <span className="text-slate-400">{summary}</span>
      <button
        type="button"
        className="ml-2 hidden text-[10px] text-brand-600 group-hover:inline"
        onClick={() => void copy(v)}
      >
        copy
      </button>
      {open ? (
        <div>
          {Array.from({ length: Math.min(size, shown) }, (_, i) => {
            const k = isArray ? i : keys![i]!;
            const child = isArray ? v[i] : (v as Record<string, unknown>)[k as string];
            return (
              <Entry
                key={String(k)}
                name={isArray ? String(i) : (k as string)}
                v={child}
                path={childPath(path, k)}
                depth={depth + 1}
              />
            );
          })}
          {size > shown ? (
            <button
              type="button"
              className="pl-4 text-brand-600 underline"
              onClick={() => setShown(shown + PAGE)}
            >
              show {Math.min(PAGE, size - shown)} more of {size.toLocaleString()}
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
});

/** Collapsible, searchable JSON tree that renders only what is opened (large payloads stay responsive). */
export function JsonViewer({ value, label, testId }: { value: unknown; label?: string; testId?: string }) {
  const [query, setQuery] = useState("");
  const deferred = useDeferredValue(query);
  const result = useMemo(() => searchJson(value, deferred), [value, deferred]);
  const [copied, setCopied] = useState(false);
  return (
    <div data-testid={testId} className="rounded-md border border-slate-200 dark:border-slate-700">
      <div className="flex items-center gap-2 border-b border-slate-200 px-2 py-1 dark:border-slate-700">
        {label ? (
          <span className="text-xs font-medium text-slate-600 dark:text-slate-300">{label}</span>
        ) : null}
        <input
          aria-label={`Search ${label ?? "JSON"}`}
          placeholder="Search keys and values"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          className="ml-auto w-44 rounded border border-slate-300 bg-transparent px-1.5 py-0.5 text-xs dark:border-slate-600"
        />
        {deferred ? (
          <span className="text-[11px] text-slate-500">
            {result.hits.size}
            {result.capped ? "+" : ""} match{result.hits.size === 1 ? "" : "es"}
          </span>
        ) : null}
        <button
          type="button"
          className="text-xs text-brand-600 hover:underline"
          onClick={() =>
            void copy(value).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
      <div className="max-h-96 overflow-auto p-2 font-mono text-xs">
        <ViewContext.Provider value={result}>
          <Entry name={null} v={value} path="$" depth={0} />
        </ViewContext.Provider>
      </div>
    </div>
  );
}
