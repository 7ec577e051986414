"use client";

import { useRef, useState } from "react";
import { secondaryButtonClass } from "@/components/page";

/** The only time a key is visible: one click copies it. */
export function NewKeyBox({ name, value }: { name: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // The Clipboard API needs a secure context; plain http on a LAN address falls back to the selection.
      input.current?.select();
      document.execCommand("copy");
    }
    setCopied(true);
  };
  return (
    <div
      role="status"
      className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-800 dark:bg-amber-950"
    >
      <p className="font-medium text-amber-900 dark:text-amber-100">
        Key “{name}” created. Copy it now: it is not shown again.
      </p>
      <div className="flex gap-2">
        <input
          ref={input}
          readOnly
          aria-label="New API key"
          value={value}
          onFocus={(e) => e.target.select()}
          className="min-w-0 flex-1 rounded-md border border-amber-300 bg-white px-3 py-2 font-mono text-xs dark:border-amber-800 dark:bg-slate-900"
        />
        <button type="button" className={secondaryButtonClass} onClick={() => void copy()}>
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
    </div>
  );
}
