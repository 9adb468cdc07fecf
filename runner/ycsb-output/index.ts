export { parseYcsbOutput } from "./parse.js";
export { parseStatusLine } from "./status-line.js";
export { YcsbOutputError } from "./errors.js";
