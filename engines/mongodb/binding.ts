import { MONGODB_DATABASE } from "./schema.js";

/** Our YCSB binding for MongoDB (runner/bindings/mongodb) and the properties that point it at a server. */
export const MONGODB_BINDING = { module: "mongodb", dbClass: "io.ycsblab.bindings.mongodb.MongoDbClient" } as const;

export interface MongoEndpoint {
  /** One host:port, or several (mongos routers on AWS). */
  hosts: string[];
}

/** Connection properties (`-p`); the write concern comes from model/presets.ts clientProperties(). */
export function mongodbConnectionProperties(endpoint: MongoEndpoint): Record<string, string> {
  if (endpoint.hosts.length === 0) throw new Error("hosts: at least one host:port is required");
  return { "mongodb.url": `mongodb://${endpoint.hosts.join(",")}/${MONGODB_DATABASE}` };
}
