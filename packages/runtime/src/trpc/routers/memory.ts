import {
  FLAVOURS,
  itemInput,
  itemPatch,
  MEMORY_KINDS,
  type MemoryItem,
  resolveFlavour,
  SEARCH_MODES,
} from "@switchyard/memory";
import { z } from "zod";
import { readJob, startReembedJob } from "./memory-jobs";
import { editorProcedure, router, TRPCError, viewerProcedure } from "../trpc";

/**
 * People's side of memory: search, browse, edit, PROFILE.md / MEMORY.md / facets. This router (and the
 * import route) is the only web path to `ingest`; agents only ever get read-only tools over `reader`.
 */
const id = z.object({ id: z.string().min(1) });
const namespace = z.string().trim().min(1).max(200);
const markdown = z.string().max(200_000, { error: "document is longer than 200 000 characters" });
const flavour = z.string().transform((name, c) => {
  const f = resolveFlavour(name);
  if (f === null) {
    c.addIssue({ code: "custom", message: `unknown flavour '${name}' (valid: ${FLAVOURS.join(", ")})` });
    return z.NEVER;
  }
  return f;
});

function found(item: MemoryItem | null, itemId: string): MemoryItem {
  if (!item) throw new TRPCError({ code: "NOT_FOUND", message: `memory item ${itemId} not found` });
  return item;
}

export const memoryRouter = router({
  status: viewerProcedure.query(({ ctx }) => {
    const { reader } = ctx.host.services.memory;
    return { ...reader.status(), namespaces: reader.namespaces() };
  }),

  threads: viewerProcedure
    .input(z.object({ namespace }))
    .query(({ ctx, input }) => ctx.host.services.memory.reader.threads(input.namespace)),

  search: viewerProcedure
    .input(
      z.object({
        query: z.string().trim().min(1, { error: "type something to search for" }).max(1000),
        namespace: namespace.default("global"),
        mode: z.enum(SEARCH_MODES).default("balanced"),
        limit: z.number().int().min(1).max(50).default(10),
      }),
    )
    .query(({ ctx, input }) => ctx.host.services.memory.reader.search(input.query, input)),

  list: viewerProcedure
    .input(
      z.object({
        namespace: namespace.optional(),
        kind: z.enum(MEMORY_KINDS).optional(),
        thread: z.string().min(1).optional(),
        limit: z.number().int().min(1).max(200).default(25),
        offset: z.number().int().min(0).default(0),
      }),
    )
    .query(({ ctx, input }) => ctx.host.services.memory.reader.list(input)),

  get: viewerProcedure
    .input(id)
    .query(({ ctx, input }) => found(ctx.host.services.memory.reader.get(input.id), input.id)),

  add: editorProcedure
    .input(itemInput)
    .mutation(({ ctx, input }) => ctx.host.services.memory.ingest.add(input)),

  edit: editorProcedure
    .input(id.extend({ patch: itemPatch }))
    .mutation(async ({ ctx, input }) =>
      found(await ctx.host.services.memory.ingest.edit(input.id, input.patch), input.id),
    ),

  delete: editorProcedure.input(id).mutation(({ ctx, input }) => {
    if (!ctx.host.services.memory.ingest.delete(input.id))
      throw new TRPCError({ code: "NOT_FOUND", message: `memory item ${input.id} not found` });
    return { deleted: true };
  }),

  documents: viewerProcedure.query(({ ctx }) => {
    const { reader } = ctx.host.services.memory;
    const { profile, memory } = reader.userFiles();
    return { profile, memory, flavours: FLAVOURS.map((name) => ({ name, content: reader.flavour(name) })) };
  }),

  setDocument: editorProcedure
    .input(z.object({ document: z.enum(["profile", "memory"]), markdown }))
    .mutation(({ ctx, input }) => {
      const { ingest } = ctx.host.services.memory;
      if (input.document === "profile") ingest.setProfile(input.markdown);
      else ingest.setMemoryFile(input.markdown);
      return { saved: true };
    }),

  setFlavour: editorProcedure.input(z.object({ flavour, markdown })).mutation(({ ctx, input }) => {
    ctx.host.services.memory.ingest.setFlavour(input.flavour, input.markdown);
    return { saved: true };
  }),

  deleteFlavour: editorProcedure.input(z.object({ flavour })).mutation(({ ctx, input }) => {
    ctx.host.services.memory.ingest.deleteFlavour(input.flavour);
    return { deleted: true };
  }),

  /** Starts embedding items that lack a vector from the current embedder (after an embedder change). */
  reembed: editorProcedure.mutation(({ ctx }) => ({ jobId: startReembedJob(ctx.host.services.memory) })),

  /** Progress of an import or re-index job started by this server process. */
  job: viewerProcedure.input(id).query(({ input }) => {
    const job = readJob(input.id);
    if (!job)
      throw new TRPCError({
        code: "NOT_FOUND",
        message: `job ${input.id} not found (it ended more than an hour ago, or the server restarted)`,
      });
    return job;
  }),
});
