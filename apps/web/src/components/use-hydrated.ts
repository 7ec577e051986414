"use client";

import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False in the server's HTML and until React has taken over the page, then true. A form whose button waits for it
 * cannot be submitted natively before its script runs (a GET would put the fields in the URL), and reading the
 * inputs at submit keeps what a person typed before that moment.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
