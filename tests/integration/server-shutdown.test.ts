import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { shutdown } from "../../server/shutdown.mjs";

/**
 * server/shutdown.mjs on a plain HTTP server (server.mjs runs it on SIGTERM;
 * tests/e2e/server-process.spec.ts runs the whole process): what happens to
 * the connections and requests under way when an instance stops.
 */

const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.closeAllConnections();
});

/** A server whose every answer takes `delayMs`, on a free port. */
async function startServer(delayMs = 0) {
  const server = http.createServer((_request, response) => setTimeout(() => response.end("ok"), delayMs));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** A raw connection, so the test decides when its request is written; `answer` is what came back before it closed. */
async function connect(server: http.Server, port: number) {
  const accepted = new Promise((resolve) => server.once("connection", resolve));
  const socket = net.connect(port, "127.0.0.1");
  let received = "";
  socket.on("data", (chunk: Buffer) => (received += chunk.toString()));
  const closed = new Promise<string>((resolve) => socket.on("close", () => resolve(received)));
  socket.on("error", () => undefined);
  await accepted;
  return { send: () => socket.write("GET / HTTP/1.1\r\nHost: shop.test\r\n\r\n"), closed, received: () => received };
}

const refused = (port: number) =>
  new Promise<string>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.on("connect", () => (socket.destroy(), resolve("accepted")));
    socket.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
  });

describe("stopping the HTTP server", () => {
  it("answers a request that arrives, on a connection accepted before the stop, after the stop began", async () => {
    const { server, port } = await startServer();
    const late = await connect(server, port);
    const stopped = shutdown(server, { stopWork: () => true, timeoutMs: 5_000 });
    await sleep(30);
    late.send();
    const answer = await late.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    // Its connection ends with the answer instead of being kept alive.
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(await stopped).toMatchObject({ clean: true, requestsDone: true, workDone: true });
  });

  it("refuses new connections, answers the request under way, and closes its kept-alive connection once idle", async () => {
    const { server, port } = await startServer(300);
    const busy = await connect(server, port);
    busy.send();
    await sleep(50);
    const stopped = shutdown(server, { stopWork: () => true, timeoutMs: 5_000, graceMs: 200 });
    expect(await refused(port)).toBe("ECONNREFUSED");
    const answer = await busy.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nok$/);
    const result = await stopped;
    expect(result).toMatchObject({ clean: true });
    // The answer came at 300 ms and the idle connection went at the end of the 200 ms grace, not after Node's 5 s keep-alive.
    expect(result.ms).toBeLessThan(1_000);
  });

  it("waits for the background work, and stops an idle server at once", async () => {
    const { server } = await startServer();
    const result = await shutdown(server, { stopWork: () => sleep(200).then(() => true), timeoutMs: 5_000 });
    expect(result).toMatchObject({ clean: true, requestsDone: true, workDone: true });
    expect(result.ms).toBeGreaterThanOrEqual(190);
    expect(result.ms).toBeLessThan(1_000);
  });

  it("gives up after timeoutMs: work still running, or a request still open (its connection is then closed)", async () => {
    const stuckWork = await startServer();
    const unfinished = await shutdown(stuckWork.server, { stopWork: () => new Promise<boolean>(() => undefined), timeoutMs: 300 });
    expect(unfinished).toMatchObject({ clean: false, requestsDone: true, workDone: false });
    expect(unfinished.ms).toBeGreaterThanOrEqual(290);

    const slow = await startServer(10_000);
    const open = await connect(slow.server, slow.port);
    open.send();
    await sleep(50);
    const cutOff = await shutdown(slow.server, { stopWork: () => true, timeoutMs: 300 });
    expect(cutOff).toMatchObject({ clean: false, requestsDone: false, workDone: true });
    expect(await open.closed).toBe("");
  });
});
