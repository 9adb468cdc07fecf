import { S3Client } from "@aws-sdk/client-s3";
import fp from "fastify-plugin";
import type { AppConfig } from "../../config.js";
import { importFromS3 } from "../../store/s3-import.js";

declare module "fastify" {
  interface FastifyInstance {
    /** Imports the poller finished (with or without new objects): a caller waits on this, not on a clock. */
    s3Polls: { completed: number };
  }
}

/** The S3 client (endpoint from config, e.g. moto on loopback) and the optional poller for the cloud deployment. */
export default fp<{ config: AppConfig }>(
  async (app, { config }) => {
    const s3 = new S3Client({
      region: config.s3.region,
      ...(config.s3.endpoint ? { endpoint: config.s3.endpoint, forcePathStyle: true } : {}),
    });
    app.decorate("s3", s3);
    const poll = config.s3.poll;
    let timer: NodeJS.Timeout | undefined;
    let running = false;
    const polls = { completed: 0 };
    app.decorate("s3Polls", polls);
    if (poll) {
      const tick = async () => {
        if (running) return; // one import at a time; the next tick catches up
        running = true;
        try {
          // One bucket failing (denied, gone) never stops the others' import.
          for (const source of [{ bucket: poll.bucket, prefix: poll.prefix }, ...(poll.more ?? [])]) {
            try {
              const r = await importFromS3(app.db, s3, source, { maxObjectBytes: config.bodyLimit });
              if (r.imported || r.invalid.length || r.skipped.length)
                app.log.info(
                  {
                    bucket: source.bucket,
                    imported: r.imported,
                    invalid: r.invalid.length,
                    skipped: r.skipped.map((k) => k.key).slice(0, 20),
                    runs: r.runs,
                  },
                  "s3 poll",
                );
            } catch (err) {
              app.log.error({ err, bucket: source.bucket }, "s3 poll failed");
            }
          }
        } finally {
          polls.completed++;
          running = false;
        }
      };
      app.addHook("onReady", async () => {
        // What the bucket already holds is imported at start, not one interval later.
        void tick();
        timer = setInterval(() => void tick(), poll.seconds * 1000);
        timer.unref();
      });
    }
    app.addHook("onClose", async () => {
      if (timer) clearInterval(timer);
      s3.destroy();
    });
  },
  { name: "s3", dependencies: ["database"] },
);
