import { QueryObserver } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { createQueryClient } from "./query-client";

describe("invalidating a query whose first fetch is still in flight", () => {
  it("fetches again after the write instead of keeping the first answer", async () => {
    const client = createQueryClient({ defaultOptions: { queries: { retry: false } } });
    let stored = ["Order doubler"];
    const answers: Array<(v: string[]) => void> = [];
    // The server reads the list when the request arrives; the answer travels back later.
    const queryFn = () => {
      const snapshot = [...stored];
      return new Promise<string[]>((resolve) => answers.push(() => resolve(snapshot)));
    };
    const observer = new QueryObserver(client, { queryKey: ["flow.list"], queryFn });
    const seen: Array<string[] | undefined> = [];
    const unsubscribe = observer.subscribe((r) => seen.push(r.data));
    await new Promise((r) => setTimeout(r, 0));
    expect(answers).toHaveLength(1);

    stored = [...stored, "nightly-report"]; // the import's write commits while the first answer is under way
    const invalidated = client.invalidateQueries({ queryKey: ["flow.list"] });
    answers[0]!(["Order doubler"]);
    await new Promise((r) => setTimeout(r, 0));
    expect(answers).toHaveLength(2);
    answers[1]!(stored);
    await invalidated;
    expect(client.getQueryData(["flow.list"])).toEqual(["Order doubler", "nightly-report"]);
    unsubscribe();
  });
});
