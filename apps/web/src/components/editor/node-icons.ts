/**
 * Stroke drawings (24×24) by the `icon` name node definitions declare, lucide-style. NodeIcon.test.ts
 * fails when a shipped node declares a name missing here, so no node renders as the neutral box.
 */
const paths: Record<string, string> = {
  webhook: "M9 7a3 3 0 1 1 4.5 2.6L16 14M6 17a3 3 0 1 0 3-3h6m0 0a3 3 0 1 0 3 3",
  mail: "M3 6h18v12H3zM3 7l9 6 9-6",
  clock: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM12 7v5l3 2",
  play: "M7 5v14l11-7z",
  globe: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM3 12h18M12 3c3 3 3 15 0 18M12 3c-3 3-3 15 0 18",
  code: "M8 8l-4 4 4 4M16 8l4 4-4 4M14 5l-4 14",
  "git-branch":
    "M6 3v12M18 9a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM6 21a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM18 9c0 6-12 3-12 9",
  split: "M4 12h6l4-6h6M10 12l4 6h6",
  signpost: "M12 3v3M12 13v8M5 6h12l3 3.5-3 3.5H5z",
  merge: "M4 6h6l4 6h6M4 18h6l4-6",
  filter: "M4 5h16l-6 8v6l-4-2v-4z",
  reply: "M10 8L5 12l5 4M5 12h9a5 5 0 0 1 5 5v1",
  send: "M4 12l16-8-6 16-2-7z",
  // Broadcast waves around a point: MQTT topics.
  radio:
    "M12 12h.01M8.5 8.5a5 5 0 0 0 0 7M15.5 8.5a5 5 0 0 1 0 7M5.6 5.6a9 9 0 0 0 0 12.8M18.4 5.6a9 9 0 0 1 0 12.8",
  // Stacked messages in a queue: AMQP.
  layers: "M12 3l9 4.5-9 4.5-9-4.5zM3 12l9 4.5 9-4.5M3 16.5l9 4.5 9-4.5",
  bot: "M8 8h8a3 3 0 0 1 3 3v5a3 3 0 0 1-3 3H8a3 3 0 0 1-3-3v-5a3 3 0 0 1 3-3zM12 4v4M9 13h.01M15 13h.01",
  sparkles: "M12 3l1.9 5.1L19 10l-5.1 1.9L12 17l-1.9-5.1L5 10l5.1-1.9zM19 3v4M21 5h-4M5 17v4M7 19H3",
  pencil: "M4 20h4L19 9l-4-4L4 16zM13 7l4 4",
  shuffle:
    "M2 18h1.4c1.3 0 2.5-.6 3.3-1.7l6.1-8.6c.7-1.1 2-1.7 3.3-1.7H22M18 2l4 4-4 4M2 6h1.9c1.5 0 2.9.9 3.6 2.2M22 18h-5.9c-1.3 0-2.6-.7-3.3-1.8l-.5-.8M18 14l4 4-4 4",
  repeat: "M17 2l3 3-3 3M4 11V9a4 4 0 0 1 4-4h12M7 22l-3-3 3-3M20 13v2a4 4 0 0 1-4 4H4",
  timer: "M12 8v5l3 2M9 2h6M12 22a8 8 0 1 0 0-16 8 8 0 0 0 0 16z",
  hourglass:
    "M5 22h14M5 2h14M17 22v-4.2a2 2 0 0 0-.6-1.4L12 12l-4.4 4.4a2 2 0 0 0-.6 1.4V22M7 2v4.2a2 2 0 0 0 .6 1.4L12 12l4.4-4.4a2 2 0 0 0 .6-1.4V2",
  list: "M8 6h13M8 12h13M8 18h13M3 6h.01M3 12h.01M3 18h.01",
  "arrow-right": "M5 12h14M12 5l7 7-7 7",
  octagon: "M7.9 2h8.2L22 7.9v8.2L16.1 22H7.9L2 16.1V7.9zM9 12h6",
  "circle-help": "M12 2a10 10 0 1 0 0 20a10 10 0 1 0 0-20zM9.1 9a3 3 0 0 1 5.8 1c0 2-3 3-3 3M12 17h.01",
  workflow:
    "M5 3h4a2 2 0 0 1 2 2v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zM7 11v4a2 2 0 0 0 2 2h4M15 13h4a2 2 0 0 1 2 2v4a2 2 0 0 1-2 2h-4a2 2 0 0 1-2-2v-4a2 2 0 0 1 2-2z",
  database:
    "M4 6c0-1.7 3.6-3 8-3s8 1.3 8 3-3.6 3-8 3-8-1.3-8-3zM4 6v12c0 1.7 3.6 3 8 3s8-1.3 8-3V6M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3",
  alert: "M12 3l10 18H2zM12 10v4M12 17h.01",
  note: "M5 3h10l4 4v14H5zM14 3v5h5",
};

/** What an icon name without a drawing renders as: a neutral box. */
export const unknownIconPath = "M4 4h16v16H4zM9 9h6v6H9z";

/** The drawing of an icon name, or undefined when there is none. */
export function iconPath(name: string): string | undefined {
  return Object.hasOwn(paths, name) ? paths[name] : undefined;
}
