/** What a failed evaluation carries, whichever error class it is. */
export interface Caught extends Error {
  code?: string;
  jsonataCode?: string;
  retryable?: boolean;
  nodeId?: string;
  field?: string;
}

/** What a promise rejected with; fails the test if it did not reject. */
export async function rejected(p: Promise<unknown>): Promise<Caught> {
  try {
    await p;
  } catch (e) {
    return e as Caught;
  }
  throw new Error("expected a rejection");
}
