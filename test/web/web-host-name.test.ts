import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningApi, startApi } from "./web-api.js";
import { type BrowserSession, openBrowser, waitForView } from "./web-browser.js";

// Served beyond loopback (`serve --host 0.0.0.0`) the dashboard is opened by a host name over plain HTTP. Here the host
// name is mapped to the loopback address inside Chromium (no traffic leaves the machine); the browser treats it like
// any other name: not a secure context, so a CSP upgrade-insecure-requests would send it to https for the bundle.
describe("dashboard opened by a host name over plain HTTP", () => {
  let api: RunningApi;
  let session: BrowserSession;
  const HOST = "results.lab.test";

  beforeAll(async () => {
    api = await startApi();
    session = await openBrowser([`--host-resolver-rules=MAP ${HOST} 127.0.0.1`]);
  }, 300_000);
  afterAll(async () => {
    await session?.close();
    await api?.close();
  });

  it("renders: the bundle and the API are fetched over http from the same name", async () => {
    const port = new URL(api.base).port;
    const requested: string[] = [];
    session.page.on("request", (r) => requested.push(r.url()));
    await session.page.goto(`http://${HOST}:${port}/?view=runs`);
    await waitForView(session.page, "runs");
    expect(requested.some((u) => u.startsWith(`http://${HOST}:${port}/`) && u.endsWith(".js"))).toBe(true);
    expect(requested.filter((u) => u.startsWith("https:"))).toEqual([]);
  }, 300_000);
});
