"use client";

import { type KeyboardEvent, useMemo, useRef, useState } from "react";
import { ExpressionPreview } from "./ExpressionPreview";
import { completionsFor, tokenClass, tokenize } from "./jsonata-tokens";
import { PREVIEW_MAX_SOURCE, useExpressionHelp } from "./use-expression-help";

interface Props {
  id: string;
  value: string;
  onChange(value: string): void;
  onBlur?(): void;
  nodeIds: readonly string[];
  placeholder?: string;
  invalid?: boolean;
  multiline?: boolean;
  /** Dotted config path of the field (the preview's errors name it). */
  field?: string;
  /** A field that is a program, not a template (`code`): never previewed. */
  noPreview?: boolean;
}

const box =
  "w-full whitespace-pre-wrap break-words rounded-md border px-2.5 py-1.5 text-sm leading-5 [overflow-wrap:anywhere]";

/**
 * A text field that turns into a JSONata expression editor when its value starts with "=": highlighted
 * tokens behind a transparent textarea, completion of `item`, `trigger`, `nodes.<id>`, the field paths
 * of the node's data and functions, and a preview of the value evaluated on the server.
 */
export function ExpressionInput({
  id,
  value,
  onChange,
  onBlur,
  nodeIds,
  placeholder,
  invalid,
  multiline,
  field,
  noPreview,
}: Props) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const backdrop = useRef<HTMLDivElement>(null);
  const [caret, setCaret] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const expression = value.startsWith("=") || value.includes("{{");
  const tokens = useMemo(() => (value.startsWith("=") ? tokenize(value) : null), [value]);
  const help = useExpressionHelp(value, field, expression && !noPreview);
  const completion = useMemo(
    () => (caret === null || dismissed ? null : completionsFor(value.slice(0, caret), nodeIds, help.paths)),
    [caret, dismissed, value, nodeIds, help.paths],
  );

  const track = () => {
    setCaret(ref.current?.selectionStart ?? null);
    if (backdrop.current && ref.current) backdrop.current.scrollTop = ref.current.scrollTop;
  };

  const accept = (option: string) => {
    if (!completion || caret === null) return;
    const start = caret - completion.word.length;
    const next = value.slice(0, start) + option + value.slice(caret);
    onChange(next);
    const pos = start + option.length;
    requestAnimationFrame(() => {
      ref.current?.setSelectionRange(pos, pos);
      setCaret(pos);
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (completion) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        const n = completion.options.length;
        setActive((a) => (a + (e.key === "ArrowDown" ? 1 : n - 1)) % n);
        return;
      }
      if (e.key === "Enter" || e.key === "Tab") {
        e.preventDefault();
        accept(completion.options[Math.min(active, completion.options.length - 1)] ?? "");
        return;
      }
      if (e.key === "Escape") {
        e.stopPropagation();
        setDismissed(true);
        return;
      }
    }
    if (e.key === "Enter" && !multiline && !e.shiftKey) e.preventDefault();
  };

  const tone = invalid ? "border-red-400 dark:border-red-700" : "border-slate-300 dark:border-slate-700";
  return (
    <div className="relative">
      {tokens ? (
        <div
          ref={backdrop}
          aria-hidden="true"
          className={`${box} pointer-events-none absolute inset-0 overflow-hidden border-transparent bg-white font-mono dark:bg-slate-800`}
        >
          {tokens.map((t, i) => (
            <span key={i} className={tokenClass[t.kind]}>
              {t.text}
            </span>
          ))}
          {"\u200b"}
        </div>
      ) : null}
      <textarea
        ref={ref}
        id={id}
        rows={
          multiline ? 4 : Math.min(6, Math.max(1, Math.ceil(value.length / 38), value.split("\n").length))
        }
        value={value}
        spellCheck={false}
        placeholder={placeholder}
        data-expression={expression ? "true" : undefined}
        aria-invalid={invalid || undefined}
        onChange={(e) => {
          onChange(e.target.value);
          setDismissed(false);
          setActive(0);
          setCaret(e.target.selectionStart);
        }}
        onKeyDown={onKeyDown}
        onKeyUp={track}
        onClick={track}
        onScroll={track}
        onBlur={() => {
          setCaret(null);
          onBlur?.();
        }}
        className={`${box} ${tone} relative resize-y bg-white dark:bg-slate-800 ${
          tokens
            ? "bg-transparent font-mono text-transparent caret-slate-900 dark:bg-transparent dark:caret-white"
            : ""
        }`}
      />
      {completion ? (
        <div
          role="listbox"
          aria-label="Expression suggestions"
          className="absolute left-0 top-full z-20 mt-1 max-h-48 w-64 overflow-auto rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-800"
        >
          {completion.options.map((o, i) => (
            <div
              key={o}
              role="option"
              tabIndex={-1}
              aria-selected={i === active}
              onMouseDown={(e) => {
                e.preventDefault();
                accept(o);
              }}
              className={`cursor-pointer px-3 py-1 font-mono text-xs ${i === active ? "bg-brand-50 text-brand-700 dark:bg-slate-700 dark:text-white" : ""}`}
            >
              {o}
            </div>
          ))}
        </div>
      ) : null}
      {help.tooLong && expression ? (
        <p data-testid="expression-preview" className="mt-1 text-xs text-slate-500">
          No preview: the value is longer than {PREVIEW_MAX_SOURCE} characters.
        </p>
      ) : help.preview && expression ? (
        <ExpressionPreview preview={help.preview} />
      ) : null}
    </div>
  );
}
