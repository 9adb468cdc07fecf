import { type TSchema, Type } from "@sinclair/typebox";

/**
 * A 200 answered as JSON, or as CSV with ?format=csv: both content types in the schema, so the OpenAPI document
 * names them and the type provider checks a handler's JSON against the schema while it may send CSV text.
 */
export function jsonOrCsv<T extends TSchema>(schema: T) {
  return {
    content: {
      "application/json": { schema },
      "text/csv": { schema: Type.String({ description: "?format=csv: the same answer, one row per point" }) },
    },
  };
}
