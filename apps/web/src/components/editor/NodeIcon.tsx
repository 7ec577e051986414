import { memo } from "react";

/** Stroke icons (24×24) by the catalogue's `icon` name; unknown names get a neutral box. */
const paths: Record<string, string> = {
  webhook: "M9 7a3 3 0 1 1 4.5 2.6L16 14M6 17a3 3 0 1 0 3-3h6m0 0a3 3 0 1 0 3 3",
  mail: "M3 6h18v12H3zM3 7l9 6 9-6",
  clock: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM12 7v5l3 2",
  play: "M7 5v14l11-7z",
  globe: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM3 12h18M12 3c3 3 3 15 0 18M12 3c-3 3-3 15 0 18",
  http: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM3 12h18M12 3c3 3 3 15 0 18M12 3c-3 3-3 15 0 18",
  code: "M8 8l-4 4 4 4M16 8l4 4-4 4M14 5l-4 14",
  "git-branch":
    "M6 3v12M18 9a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM6 21a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM18 9c0 6-12 3-12 9",
  branch: "M6 3v12M18 9a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM6 21a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM18 9c0 6-12 3-12 9",
  split: "M4 12h6l4-6h6M10 12l4 6h6",
  switch: "M4 12h6l4-6h6M10 12l4 6h6M14 12h6",
  merge: "M4 6h6l4 6h6M4 18h6l4-6",
  filter: "M4 5h16l-6 8v6l-4-2v-4z",
  reply: "M10 8L5 12l5 4M5 12h9a5 5 0 0 1 5 5v1",
  send: "M4 12l16-8-6 16-2-7z",
  bot: "M8 8h8a3 3 0 0 1 3 3v5a3 3 0 0 1-3 3H8a3 3 0 0 1-3-3v-5a3 3 0 0 1 3-3zM12 4v4M9 13h.01M15 13h.01",
  agent: "M8 8h8a3 3 0 0 1 3 3v5a3 3 0 0 1-3 3H8a3 3 0 0 1-3-3v-5a3 3 0 0 1 3-3zM12 4v4M9 13h.01M15 13h.01",
  pencil: "M4 20h4L19 9l-4-4L4 16zM13 7l4 4",
  set: "M4 20h4L19 9l-4-4L4 16zM13 7l4 4",
  repeat: "M17 2l3 3-3 3M4 11V9a4 4 0 0 1 4-4h12M7 22l-3-3 3-3M20 13v2a4 4 0 0 1-4 4H4",
  loop: "M17 2l3 3-3 3M4 11V9a4 4 0 0 1 4-4h12M7 22l-3-3 3-3M20 13v2a4 4 0 0 1-4 4H4",
  timer: "M12 8v5l3 2M9 2h6M12 22a8 8 0 1 0 0-16 8 8 0 0 0 0 16z",
  wait: "M12 8v5l3 2M9 2h6M12 22a8 8 0 1 0 0-16 8 8 0 0 0 0 16z",
  database:
    "M4 6c0-1.7 3.6-3 8-3s8 1.3 8 3-3.6 3-8 3-8-1.3-8-3zM4 6v12c0 1.7 3.6 3 8 3s8-1.3 8-3V6M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3",
  flow: "M4 6h6v4H4zM14 14h6v4h-6zM10 8h2a2 2 0 0 1 2 2v4",
  alert: "M12 3l10 18H2zM12 10v4M12 17h.01",
  note: "M5 3h10l4 4v14H5zM14 3v5h5",
};

export const NodeIcon = memo(function NodeIcon({
  name,
  className = "h-4 w-4",
}: {
  name: string;
  className?: string;
}) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      aria-hidden="true"
    >
      <path d={paths[name] ?? "M4 4h16v16H4zM9 9h6v6H9z"} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
});

/** Accent colour per category, used by the palette and the node header. */
export function categoryTone(category: string): string {
  switch (category) {
    case "trigger":
      return "bg-amber-100 text-amber-700 dark:bg-amber-900/50 dark:text-amber-300";
    case "logic":
    case "flow":
      return "bg-violet-100 text-violet-700 dark:bg-violet-900/50 dark:text-violet-300";
    case "http":
    case "network":
      return "bg-sky-100 text-sky-700 dark:bg-sky-900/50 dark:text-sky-300";
    case "ai":
    case "agent":
      return "bg-emerald-100 text-emerald-700 dark:bg-emerald-900/50 dark:text-emerald-300";
    case "data":
      return "bg-rose-100 text-rose-700 dark:bg-rose-900/50 dark:text-rose-300";
    default:
      return "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300";
  }
}
