import { QueryClient, type QueryClientConfig } from "@tanstack/react-query";

/**
 * A QueryClient whose invalidation always leads to a fetch that starts after it. React Query restarts a fetch in
 * flight on invalidation only when the query already has data; a first fetch still in flight is joined instead,
 * and its answer may predate the write the invalidation follows. On the Flows page an import finished while the
 * list's first fetch was under way, and the list then stayed without the imported flow (seen in CI).
 */
export class WriteAwareQueryClient extends QueryClient {
  override async invalidateQueries(...args: Parameters<QueryClient["invalidateQueries"]>): Promise<void> {
    await this.cancelQueries(args[0]);
    return super.invalidateQueries(...args);
  }
}

export const createQueryClient = (config?: QueryClientConfig) => new WriteAwareQueryClient(config);
