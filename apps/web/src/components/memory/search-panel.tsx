"use client";

import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { buttonClass, EmptyState, ErrorBox } from "@/components/page";
import { useTRPC } from "@/trpc/client";
import { inputClass, ItemMeta, KindBadge, panelClass } from "./ui";

const MODES = [
  { value: "balanced", label: "Balanced", hint: "both rankings fused" },
  { value: "semantic", label: "Semantic", hint: "by meaning" },
  { value: "lexical", label: "Lexical", hint: "by words" },
] as const;
type Mode = (typeof MODES)[number]["value"];

/** Search as agents do (memory_hybrid_search), showing each hit's score and where it ranked. */
export function SearchPanel({ namespaces }: { namespaces: string[] }) {
  const trpc = useTRPC();
  const [text, setText] = useState("");
  const [mode, setMode] = useState<Mode>("balanced");
  const [namespace, setNamespace] = useState("global");
  const [submitted, setSubmitted] = useState<{ query: string; mode: Mode; namespace: string }>();
  const search = useQuery({
    ...trpc.memory.search.queryOptions(submitted ?? { query: "x" }),
    enabled: !!submitted,
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim()) setSubmitted({ query: text.trim(), mode, namespace });
  };
  const choices = namespaces.includes(namespace) ? namespaces : [namespace, ...namespaces];

  return (
    <section className={panelClass} aria-labelledby="memory-search-heading">
      <h2 id="memory-search-heading" className="text-base font-semibold">
        Search
      </h2>
      <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-3" aria-label="Search memory">
        <div className="min-w-64 flex-1">
          <label htmlFor="memory-query" className="sr-only">
            Search memory
          </label>
          <input
            id="memory-query"
            type="search"
            className={inputClass}
            placeholder="e.g. who approves refunds"
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </div>
        <label className="text-sm">
          <span className="sr-only">Namespace</span>
          <select
            aria-label="Search namespace"
            className={inputClass}
            value={namespace}
            onChange={(e) => setNamespace(e.target.value)}
          >
            {choices.map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
        </label>
        <fieldset className="flex gap-3 text-sm">
          <legend className="sr-only">Search mode</legend>
          {MODES.map((m) => (
            <label key={m.value} className="flex items-center gap-1" title={m.hint}>
              <input
                type="radio"
                name="mode"
                value={m.value}
                checked={mode === m.value}
                onChange={() => setMode(m.value)}
              />
              {m.label}
            </label>
          ))}
        </fieldset>
        <button type="submit" className={buttonClass} disabled={!text.trim() || search.isFetching}>
          Search
        </button>
      </form>
      {search.error ? <ErrorBox message={search.error.message} /> : null}
      {submitted && search.data?.length === 0 ? (
        <EmptyState title="Nothing found">
          No item in “{submitted.namespace}” matches “{submitted.query}”. Try other words or the lexical mode
          for exact terms.
        </EmptyState>
      ) : null}
      {search.data && search.data.length > 0 ? (
        <ol className="divide-y divide-slate-200 dark:divide-slate-800" aria-label="Search results">
          {search.data.map((hit, i) => (
            <li key={hit.item.id} className="space-y-1 py-3" data-testid="memory-hit">
              <div className="flex items-baseline justify-between gap-3">
                <p className="flex items-center gap-2 font-medium">
                  <span className="text-slate-400">{i + 1}.</span>
                  <KindBadge kind={hit.item.kind} />
                  <span data-testid="memory-hit-key">{hit.item.key}</span>
                </p>
                <p className="shrink-0 font-mono text-xs text-slate-500" data-testid="memory-hit-score">
                  score {hit.score.toFixed(2)}
                  {hit.lexicalRank ? ` · lexical #${hit.lexicalRank}` : ""}
                  {hit.semanticRank ? ` · semantic #${hit.semanticRank}` : ""}
                </p>
              </div>
              <p className="line-clamp-3 whitespace-pre-wrap text-sm text-slate-600 dark:text-slate-300">
                {hit.item.content}
              </p>
              <ItemMeta item={hit.item} />
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
