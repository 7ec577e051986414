/**
 * How the editor presents the palette categories node definitions declare: order, label and colour.
 * Presentation stays here, out of the definitions; NodeIcon.test.ts fails when a shipped node declares
 * a category missing here. A category from an extra node type still shows, after these, in neutral grey.
 */
const categories: Record<string, { label: string; tone: string }> = {
  trigger: { label: "Trigger", tone: "bg-amber-100 text-amber-700 dark:bg-amber-900/50 dark:text-amber-300" },
  logic: { label: "Logic", tone: "bg-violet-100 text-violet-700 dark:bg-violet-900/50 dark:text-violet-300" },
  flow: { label: "Flow", tone: "bg-violet-100 text-violet-700 dark:bg-violet-900/50 dark:text-violet-300" },
  network: { label: "Network", tone: "bg-sky-100 text-sky-700 dark:bg-sky-900/50 dark:text-sky-300" },
  data: { label: "Data", tone: "bg-rose-100 text-rose-700 dark:bg-rose-900/50 dark:text-rose-300" },
  communication: {
    label: "Communication",
    tone: "bg-teal-100 text-teal-700 dark:bg-teal-900/50 dark:text-teal-300",
  },
  ai: { label: "AI", tone: "bg-emerald-100 text-emerald-700 dark:bg-emerald-900/50 dark:text-emerald-300" },
  import: { label: "Import", tone: "bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-200" },
};
const order = Object.keys(categories);

export const knownCategory = (category: string): boolean => Object.hasOwn(categories, category);

/** Accent colour of a category, used by the palette and the node header. */
export function categoryTone(category: string): string {
  return knownCategory(category)
    ? categories[category]!.tone
    : "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300";
}

export function categoryLabel(category: string): string {
  return knownCategory(category)
    ? categories[category]!.label
    : category.charAt(0).toUpperCase() + category.slice(1);
}

/** Sort key of a category in the palette: the known ones in order, then the rest by name. */
export function categoryRank(category: string): number {
  return knownCategory(category) ? order.indexOf(category) : order.length;
}
