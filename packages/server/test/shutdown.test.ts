/**
 * Closing the server while a keep-alive connection is still answering: the
 * connection is ended as soon as its response is done, not after the 65 s
 * keep-alive timeout (which once held `npm test`'s servers, and would hold a
 * deploy's restart, for a minute).
 */

import http from "node:http";
import { expect, it } from "vitest";
import { startTestServer } from "./helpers/harness.js";
import { longText } from "./helpers/money.js";
import { data } from "./helpers/spec-client.js";

it("a connection whose response ends after closing began is closed then, not after its keep-alive timeout", async () => {
  const t = await startTestServer();
  const { client } = await t.newCustomer("5");
  // A long text is answered while still produced: its audio streams until the production is done.
  const { audio_url } = data<{ audio_url: string }>(await client.tts({ text: longText(2400), voice_id: "cmn-female-1" }));
  const agent = new http.Agent({ keepAlive: true });
  const body = await new Promise<Buffer>((resolve, reject) => {
    http
      .get(audio_url, { agent }, (response) => {
        expect(response.headers["transfer-encoding"]).toBe("chunked");
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve(Buffer.concat(chunks)));
        response.on("error", reject);
        // Closing begins while this response is still being written.
        void closing.start();
      })
      .on("error", reject);
    const closing = {
      started: false,
      async start() {
        if (this.started) return;
        this.started = true;
        const began = Date.now();
        await t.close();
        closedAfterMs = Date.now() - began;
      },
    };
  });
  expect(body.length).toBeGreaterThan(100_000);
  await until(() => closedAfterMs !== undefined);
  // The production finishes (the close waits for it), then the connection goes at once.
  expect(closedAfterMs).toBeLessThan(30_000);
  agent.destroy();
}, 90_000);

let closedAfterMs: number | undefined;

async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 50));
}
