/**
 * The viewport a graph opens at: the whole graph when it fits at a readable zoom; otherwise the
 * readable zoom from the graph's left (where the trigger is) or top edge, an axis that fits being
 * centred, and the person pans. React Flow's fitView would shrink a long flow until its titles are a
 * few pixels tall.
 */

/** Node titles are 14 px; at 0.75 they are 10.5 px on screen, the smallest we consider readable. */
export const MIN_READABLE_ZOOM = 0.75;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function openingViewport(
  bounds: Rect,
  view: { width: number; height: number },
  opts: { minZoom?: number; maxZoom?: number; padding?: number } = {},
): { x: number; y: number; zoom: number } {
  const minZoom = opts.minZoom ?? MIN_READABLE_ZOOM;
  const maxZoom = opts.maxZoom ?? 1;
  const pad = opts.padding ?? 24;
  const fit = Math.min(
    (view.width - 2 * pad) / Math.max(bounds.width, 1),
    (view.height - 2 * pad) / Math.max(bounds.height, 1),
  );
  const zoom = Math.max(minZoom, Math.min(maxZoom, fit));
  const fitsX = bounds.width * zoom <= view.width - 2 * pad;
  const fitsY = bounds.height * zoom <= view.height - 2 * pad;
  const x = fitsX ? (view.width - bounds.width * zoom) / 2 - bounds.x * zoom : pad - bounds.x * zoom;
  const y = fitsY ? (view.height - bounds.height * zoom) / 2 - bounds.y * zoom : pad - bounds.y * zoom;
  return { x, y, zoom };
}
