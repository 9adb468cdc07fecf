import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../runner/runner-helpers.js";

const run = promisify(execFile);

describe("ycsb-lab serve on a port another process holds", () => {
  it("fails naming the address and says to choose another with --port", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const { port } = holder.address() as AddressInfo;
    const dir = mkdtempSync(join(tmpdir(), "ycsb-lab-port-"));
    try {
      const failed = await run(
        process.execPath,
        [join(REPO_ROOT, "bin", "ycsb-lab.js"), "serve", "--port", String(port)],
        {
          cwd: REPO_ROOT,
          env: {
            ...process.env,
            DATABASE_URL: "",
            PGLITE_DIR: join(dir, "pglite"),
            YCSB_LAB_TOKEN_FILE: join(dir, "token"),
          },
          timeout: 240_000,
        },
      ).then(
        () => undefined,
        (e: { code: number; stderr: string }) => e,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toContain(`EADDRINUSE: address already in use 127.0.0.1:${port}`);
      expect(failed?.stderr).toContain("choose another port with --port");
    } finally {
      holder.close();
    }
  }, 240_000);
});
