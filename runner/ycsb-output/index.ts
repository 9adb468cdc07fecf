export { parseYcsbOutput } from "./parse.js";
export { appendStatusLine } from "./status-line.js";
export { YcsbOutputError } from "./errors.js";
