import type { Engine } from "../../../model/engine.js";
import { formCassandra } from "./cassandra.js";
import { formCouchbase } from "./couchbase.js";
import { formHBase } from "./hbase.js";
import { formMongodb } from "./mongodb.js";
import type { Formation } from "./types.js";

/** The leader's formation per engine. */
const FORMATIONS: Partial<Record<Engine, Formation>> = {
  cassandra: formCassandra,
  mongodb: formMongodb,
  couchbase: formCouchbase,
  hbase: formHBase,
};

export function formationFor(engine: Engine): Formation {
  const f = FORMATIONS[engine];
  if (!f) throw new Error(`engine: the boot path has no formation for ${engine} yet`);
  return f;
}
