import { describe, expect, it } from "vitest";
import { describeError, ownFrames } from "~/utils/errors.server";

/** Reads `y` of what it is given: given undefined, fails as the log line did, here in a file of the shop's. */
function readY(point: { y: number } | undefined) {
  return point!.y;
}

function failOnce(): Error {
  try {
    readY(undefined);
  } catch (error) {
    return error as Error;
  }
  throw new Error("readY did not fail");
}

describe("an error as a log line", () => {
  it("names its class, its message and the top frames in the shop's own files, innermost first", () => {
    const line = describeError(failOnce());
    expect(line).toMatch(
      /^TypeError: Cannot read properties of undefined \(reading 'y'\) \[at app\/utils\/errors\.server\.test\.ts:\d+ \(readY\) < app\/utils\/errors\.server\.test\.ts:\d+ \(failOnce\)/,
    );
  });

  it("leaves out frames in node_modules and Node's own, and never the message's other lines", () => {
    const error = new Error('Invalid `prisma.order.create()` invocation:\n\n  email: "jane@example.com"');
    error.stack = [
      "Error: Invalid `prisma.order.create()` invocation:",
      '  email: "jane@example.com"',
      `    at Kn.handleRequestError (${process.cwd()}/node_modules/@prisma/client/runtime/client.js:65:8)`,
      "    at process.processTicksAndRejections (node:internal/process/task_queues:105:5)",
      `    at async reserveAndCreate (file://${process.cwd()}/app/models/orders.server.ts:245:11)`,
      `    at ${process.cwd()}/server/app.mjs:120:7`,
    ].join("\n");
    expect(ownFrames(error)).toEqual(["app/models/orders.server.ts:245 (reserveAndCreate)", "server/app.mjs:120"]);
    const line = describeError(error);
    expect(line).toBe("Error: Invalid `prisma.order.create()` invocation: [at app/models/orders.server.ts:245 (reserveAndCreate) < server/app.mjs:120]");
    expect(line).not.toContain("jane@example.com");
  });

  it("says nothing of frames when none is the shop's", () => {
    const error = new Error("socket hang up");
    error.stack = "Error: socket hang up\n    at TLSSocket.onclose (node:_http_client:480:23)";
    expect(describeError(error)).toBe("Error: socket hang up");
  });
});
