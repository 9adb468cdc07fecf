import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { FacetsResponse } from "../../../../model/api-schemas.js";
import { facets } from "../../../store/queries/landing.js";

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/",
    {
      onRequest: app.readAccess,
      schema: {
        summary:
          "The values every run filter can take (engines, versions, presets, nodes, scenarios, workloads, sources, ...) with their number of runs",
        tags: ["runs"],
        response: { 200: FacetsResponse },
      },
    },
    async () => facets(app.db),
  );
};
export default route;
