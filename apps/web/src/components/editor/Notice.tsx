"use client";

import { useEffect, useState } from "react";
import { useEditor } from "./store";

const SHOW_MS = 5000;

/** The latest editor message (a refused connection, a save, a failed activation), bottom centre. */
export function Notice() {
  const notice = useEditor((s) => s.notice);
  const [hidden, setHidden] = useState<number | null>(null);
  useEffect(() => {
    if (!notice) return;
    const t = setTimeout(() => setHidden(notice.id), notice.kind === "error" ? SHOW_MS * 2 : SHOW_MS);
    return () => clearTimeout(t);
  }, [notice]);
  if (!notice || hidden === notice.id) return null;
  return (
    <div
      role={notice.kind === "error" ? "alert" : "status"}
      data-testid="notice"
      className={`fixed bottom-6 left-1/2 z-40 flex max-w-xl -translate-x-1/2 items-start gap-3 whitespace-pre-line rounded-lg px-4 py-2.5 text-sm shadow-lg ${
        notice.kind === "error"
          ? "bg-red-600 text-white"
          : "bg-slate-900 text-white dark:bg-slate-100 dark:text-slate-900"
      }`}
    >
      <span>{notice.text}</span>
      <button
        type="button"
        aria-label="Dismiss"
        onClick={() => setHidden(notice.id)}
        className="opacity-70 hover:opacity-100"
      >
        ✕
      </button>
    </div>
  );
}
