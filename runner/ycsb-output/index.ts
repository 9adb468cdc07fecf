export { YcsbOutputError } from "./errors.js";
export { parseYcsbOutput } from "./parse.js";
export { appendStatusLine } from "./status-line.js";
