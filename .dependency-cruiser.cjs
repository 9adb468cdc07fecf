/**
 * The layering of DESIGN.md ("Layout and layering") as rules, checked by `npm test` (test/repository/layering.test.ts)
 * and by `npm run lint:layers`. Arrows only point down:
 *   stacks -> infra -> engines -> model;  runner -> engines, model;  api -> model (+ prisma's generated client and
 *   reference data);  web -> model;  rehearse and cli above all;  nothing but cli imports rehearse.
 * Tests, benchmarks, scripts, the kit and the package entry points may import any layer.
 */
const layer = (name, allowed, comment) => ({
  name: `${name}-imports-only-below`,
  comment,
  severity: "error",
  from: { path: `^${name}/` },
  to: {
    path: "^(model|engines|infra|stacks|runner|api|web|prisma|rehearse|cli|kit|tools|bench|test|scripts)/",
    pathNot: `^(${[name, ...allowed].join("|")})/`,
  },
});

module.exports = {
  forbidden: [
    layer("model", [], "model/ is pure data and rules: it imports nothing of the project above it"),
    layer("engines", ["model"], "engines/ is pure knowledge of each engine: model only"),
    layer("infra", ["engines", "model"], "infra/ (Pulumi components) must not drag in runner, api or web"),
    layer(
      "stacks",
      ["infra", "engines", "model", "kit"],
      "stacks/ reads config, builds infra components and ships the kit they boot",
    ),
    layer("runner", ["engines", "model", "tools"], "runner/ runs on clients: no Pulumi (infra), no API, no dashboard"),
    layer("tools", ["model"], "tools/ (Java helpers called from Node) are leaves"),
    layer(
      "kit",
      ["runner", "engines", "model", "web"],
      "kit/ packs what a machine runs: the CLI, the Java artifacts, the built dashboard",
    ),
    layer(
      "api",
      ["model", "prisma"],
      "api/ uses model and the Prisma client; it serves the dashboard's built files, never imports web/",
    ),
    layer(
      "prisma",
      ["model"],
      "prisma/ holds the schema, migrations, generated client and reference data: no API code",
    ),
    layer("web", ["model"], "the dashboard imports model (types and pure functions), nothing else"),
    layer(
      "rehearse",
      ["stacks", "infra", "engines", "model", "runner", "api", "prisma", "tools", "kit", "web"],
      "rehearse stands above infra, runner and api",
    ),
    {
      name: "nothing-imports-rehearse",
      comment: "the rehearsal stands above everything: only the CLI (and tests) reach it",
      severity: "error",
      from: { pathNot: "^(rehearse|cli|test|bench|scripts)/" },
      to: { path: "^rehearse/" },
    },
    {
      name: "no-circular",
      comment: "a cycle means two modules are one job, or a shared part belongs lower down",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|dist|web/dist|prisma/generated|runner/bindings|\\.cache)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
