import { OptionalKind, type TObject, type TSchema } from "@sinclair/typebox";
import { TRANSFER_COUNT_PATTERN, TRANSFER_DATE_PATTERN } from "../../model/transfer-format.js";

/**
 * A row of an export line as Prisma writes it, its columns taken from the line's schema (model/transfer-format.ts),
 * never listed again here: ISO text back to a Date, decimal text back to a BigInt, an optional JSON column's null to
 * "unset" (Prisma wants a marker for a JSON null). The keys named in `nested` are relations, written by the caller.
 */
export function storedRow(schema: TObject, value: Record<string, unknown>, nested: readonly string[] = []) {
  const row: Record<string, unknown> = {};
  for (const [column, type] of Object.entries(schema.properties)) {
    if (nested.includes(column)) continue;
    row[column] = storedValue(type, value[column]);
  }
  return row;
}

/** A column's type as the schema states it, with its null alternative taken away. */
function nonNull(type: TSchema): TSchema {
  const anyOf = (type as { anyOf?: TSchema[] }).anyOf;
  return anyOf?.find((t) => t.type !== "null") ?? type;
}

function storedValue(type: TSchema, v: unknown): unknown {
  const inner = nonNull(type);
  if (inner.pattern === TRANSFER_DATE_PATTERN) return v === null || v === undefined ? null : new Date(String(v));
  if (inner.pattern === TRANSFER_COUNT_PATTERN) return BigInt(String(v));
  if (type[OptionalKind] === "Optional" && (v === null || v === undefined)) return undefined;
  return v;
}
