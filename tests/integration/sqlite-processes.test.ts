import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { db } from "~/utils/db.server";

/**
 * Several app processes (server instances, the seed, the outbox worker of
 * another instance) share one SQLite file. Each must wait its turn for the
 * write lock instead of failing with SQLITE_BUSY. See app/utils/db.server.ts.
 */

const WRITES_PER_PROCESS = 200;
const WRITER = path.resolve("tests/integration/sqlite-writer.ts");
const TSX = path.resolve("node_modules/.bin/tsx");

type Writer = { child: ChildProcessWithoutNullStreams; lines: AsyncIterator<string>; stderr: string[] };

function startWriter(file: string, label: string): Writer {
  const child = spawn(TSX, [WRITER, file, label, String(WRITES_PER_PROCESS)], { env: process.env });
  const stderr: string[] = [];
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => stderr.push(chunk));
  return { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator](), stderr };
}

async function nextLine(writer: Writer) {
  const { value, done } = await writer.lines.next();
  if (done) throw new Error(`writer exited early: ${writer.stderr.join("")}`);
  return value;
}

// SQLite files only: several PostgreSQL clients are what the cluster test runs.
describe.skipIf(process.env.TEST_DATABASE === "postgres")("several processes on one SQLite file", () => {
  it(`stores all of ${2 * WRITES_PER_PROCESS} concurrent sign-ups from two processes, without an error`, { timeout: 30_000 }, async () => {
    const file = process.env.DATABASE_URL!.replace(/^file:/, "");
    const run = randomUUID();
    const writers = [startWriter(file, `${run}-a`), startWriter(file, `${run}-b`)];
    try {
      for (const writer of writers) expect(await nextLine(writer)).toBe("ready");
      for (const writer of writers) writer.child.stdin.write("go\n");
      const reports = await Promise.all(writers.map(async (writer) => JSON.parse(await nextLine(writer)) as { errors: string[] }));

      expect(reports.flatMap((report) => report.errors)).toEqual([]);
      expect(await db.subscriber.count({ where: { mailbox: { startsWith: run } } })).toBe(2 * WRITES_PER_PROCESS);
      expect(await db.outboxMessage.count({ where: { to: { startsWith: run } } })).toBe(2 * (WRITES_PER_PROCESS - WRITES_PER_PROCESS / 4));
    } finally {
      for (const writer of writers) writer.child.kill();
    }
  });
});
