import { z } from "zod";
import { flowFileJsonSchema } from "../rest/flow-file";
import { router, viewerProcedure } from "../trpc";

/** `GET /api/v1/schema/flow.json`: the flow file format for editors' `$schema` (the OpenAPI document is served beside it). */
export const schemaApiRouter = router({
  flow: viewerProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/schema/flow.json",
        operationId: "getFlowSchema",
        tags: ["Schema"],
        summary: "JSON Schema of the flow file format",
        description:
          "Point an editor's `$schema` at this for completion while writing flow files (docs/flow-format.md).",
      },
    })
    .input(z.strictObject({}))
    .output(z.record(z.string(), z.unknown()).describe("A JSON Schema (draft 2020-12)"))
    .query(() => flowFileJsonSchema()),
});
