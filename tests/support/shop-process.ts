import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { createScratchDatabase, testPostgresServer } from "../../scripts/scratch-postgres.mjs";

/**
 * Real shop processes for the tests that need one of their own (attacks,
 * shutdowns, several instances, settings, logs, loaded modules): a database of
 * their own on the test PostgreSQL server, and `node server.mjs` serving it.
 */

export type ScratchDatabase = { url: string; adminUrl: string; drop: () => Promise<void> };

/** An empty database `<prefix>_…` on the test server (TEST_POSTGRES_URL's, or the embedded one); `drop()` removes it. */
export async function scratchDatabase(prefix: string): Promise<ScratchDatabase> {
  const server = await testPostgresServer();
  const database = await createScratchDatabase(server.adminUrl, prefix);
  return {
    url: database.url,
    adminUrl: server.adminUrl,
    drop: async () => {
      await database.drop();
      await server.release();
    },
  };
}

export type ShopProcess = {
  origin: string;
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output: () => string;
  /** Its JSON log lines so far (LOG_FILE). */
  logLines: () => Record<string, unknown>[];
  exited: Promise<number | null>;
  /** Stops the process with `signal` (SIGTERM by default) and waits for it to exit. */
  stop: (signal?: NodeJS.Signals) => Promise<void>;
};

/** Waits until `origin`'s /readyz answers 200 (it takes traffic); fails early when `child` exits first. */
export async function waitUntilServing(origin: string, child: ChildProcess, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the shop at ${origin} exited (${child.exitCode ?? child.signalCode}) before it served`);
    if (
      await fetch(`${origin}/readyz`).then(
        (response) => response.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the shop at ${origin} did not serve within ${timeoutMs / 1000} s`);
}

type LaunchOptions = {
  /** The origin tests use (http://localhost:<port> by default). */
  origin?: string;
  /** Wait until it serves (the default), or answer at once (a process expected to refuse to start). */
  waitUntilReady?: boolean;
  /** Node flags before server.mjs. */
  nodeOptions?: string[];
  /** Also copy what it prints to this process's output (the shared e2e server). */
  echo?: boolean;
};

/** Whether something already accepts connections on the IPv4 loopback's `port`. */
function portAnswers(port: number) {
  return new Promise<boolean>((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * `node server.mjs` on `port` (it migrates and seeds DATABASE_URL first, as
 * `npm start` does; the build must exist), by default once it serves. Its log
 * goes to a file of its own unless `env` names one.
 */
export async function startShop(port: number, env: Record<string, string | undefined>, options: LaunchOptions = {}): Promise<ShopProcess> {
  const { origin = `http://localhost:${port}`, waitUntilReady = true, nodeOptions = [], echo = false } = options;
  // A shop left on the port by an interrupted run would answer in this one's place, on another database.
  if (await portAnswers(port))
    throw new Error(`Port ${port} is already in use (a shop left running by an interrupted test run?): stop that process, or pick another port.`);
  const logFile = env.LOG_FILE ?? `var/test-logs/e2e/shop-${port}.jsonl`;
  mkdirSync(path.dirname(logFile), { recursive: true });
  rmSync(logFile, { force: true });
  const childEnv: Record<string, string | undefined> = { SKIP_BUILD: "true", ...env, PORT: String(port), LOG_FILE: logFile };
  const child = spawn(process.execPath, [...nodeOptions, "server.mjs"], {
    env: childEnv as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.on("data", (chunk: Buffer) => {
      printed += chunk.toString();
      if (echo) process.stdout.write(chunk);
    });
  }
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const logLines = () => {
    let text = "";
    try {
      text = readFileSync(logFile, "utf8");
    } catch {
      return [];
    }
    return text
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  };
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    await exited;
  };
  const shop = { origin, child, output: () => printed, logLines, exited, stop };
  if (!waitUntilReady) return shop;
  try {
    // The IPv4 loopback answers whether the shop listens on every interface or, behind a proxy, on the loopback only.
    await waitUntilServing(`http://127.0.0.1:${port}`, child);
  } catch (error) {
    await stop("SIGKILL");
    throw new Error(`${error instanceof Error ? error.message : String(error)}:\n${printed}`);
  }
  return shop;
}
