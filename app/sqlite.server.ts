import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";

/**
 * The app's SQLite driver adapter: Prisma's better-sqlite3 adapter, wrapped so
 * that it is safe with interactive transactions and with several processes.
 *
 * 1. One connection, one transaction at a time, and nothing else meanwhile.
 *    A process has a single better-sqlite3 connection. The stock adapter
 *    queues interactive transactions behind a mutex, but a plain query of
 *    another request that arrives while a transaction is open (between two of
 *    its awaits) runs on that connection, inside that transaction: it sees the
 *    transaction's uncommitted rows, and its write is undone, after it was
 *    acknowledged, if the transaction rolls back. Here every top-level query
 *    waits for a lock that an open transaction holds until Prisma ends it.
 *
 *    So inside `db.$transaction(async (tx) => …)` use `tx`, never `db`: a `db`
 *    query there waits for the transaction it is part of, until Prisma's
 *    transaction timeout rolls that transaction back.
 *
 * 2. Several processes on one file. WAL lets readers and one writer of
 *    different processes work at the same time; the busy timeout makes a
 *    connection wait for another process's write lock instead of failing
 *    with SQLITE_BUSY; and transactions start with BEGIN IMMEDIATE, taking
 *    the write lock up front. (A deferred BEGIN would take it at the first
 *    write; if another connection holds it then, SQLite answers SQLITE_BUSY
 *    at once, without the busy timeout, since waiting could deadlock.)
 *    better-sqlite3 is synchronous: while it waits for another process's
 *    lock, this process's event loop waits too (at most the busy timeout).
 */

export const BUSY_TIMEOUT_MS = 5_000;

/** Run on every connection when it opens. */
const PRAGMAS = [
  // Stored in the file: every later connection, of any process, uses WAL too.
  "PRAGMA journal_mode = WAL",
  // Safe with WAL: a power cut may lose the last commits, never corrupt the file.
  "PRAGMA synchronous = NORMAL",
  // better-sqlite3's default; said here so it does not depend on that.
  "PRAGMA foreign_keys = ON",
];

// The driver adapter interface (@prisma/driver-adapter-utils), as the stock adapter declares it.
type Connection = Awaited<ReturnType<PrismaBetterSQLite3["connect"]>>;
type Transaction = Awaited<ReturnType<Connection["startTransaction"]>>;
type Query = Parameters<Connection["executeRaw"]>[0];

const statement = (sql: string): Query => ({ sql, args: [], argTypes: [] });

/** The adapter factory handed to `new PrismaClient({ adapter })`. */
export class SQLiteAdapter {
  readonly provider = "sqlite";
  readonly adapterName: string;
  readonly #factory: PrismaBetterSQLite3;

  /** `file`: a path (or ":memory:"), without the "file:" of a DATABASE_URL. */
  constructor(file: string) {
    // better-sqlite3's `timeout` option is SQLite's busy timeout.
    this.#factory = new PrismaBetterSQLite3({ url: file, timeout: BUSY_TIMEOUT_MS });
    this.adapterName = this.#factory.adapterName;
  }

  async connect(): Promise<Connection> {
    return SerializedConnection.open(await this.#factory.connect());
  }

  async connectToShadowDb(): Promise<Connection> {
    return SerializedConnection.open(await this.#factory.connectToShadowDb());
  }
}

/** A first-come, first-served lock made of a chain of promises. */
class Lock {
  #last: Promise<void> = Promise.resolve();

  /** Resolves, in call order, once every earlier holder has released; gives the release function. */
  acquire(): Promise<() => void> {
    const previous = this.#last;
    let release!: () => void;
    this.#last = new Promise<void>((resolve) => (release = resolve));
    return previous.then(() => release);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await task();
    } finally {
      release();
    }
  }
}

/**
 * The stock adapter's connection, behind the lock. Queries go through the
 * stock adapter's public methods (it maps SQLite's errors to Prisma's); only
 * its startTransaction is replaced, since it issues a deferred BEGIN and
 * knows nothing of this lock. Nothing here reaches into the stock adapter's
 * internals (its better-sqlite3 `client`, its own mutex, which goes unused):
 * a version of it that keeps Prisma's driver adapter interface keeps this
 * working.
 */
class SerializedConnection implements Connection {
  readonly provider: Connection["provider"];
  readonly adapterName: string;
  readonly #connection: Connection;
  readonly #lock = new Lock();

  static async open(connection: Connection) {
    try {
      await connection.executeScript(PRAGMAS.join(";\n"));
    } catch (error) {
      await connection.dispose();
      throw error;
    }
    return new SerializedConnection(connection);
  }

  private constructor(connection: Connection) {
    this.#connection = connection;
    this.provider = connection.provider;
    this.adapterName = connection.adapterName;
  }

  queryRaw(query: Query) {
    return this.#lock.run(() => this.#connection.queryRaw(query));
  }

  executeRaw(query: Query) {
    return this.#lock.run(() => this.#connection.executeRaw(query));
  }

  executeScript(script: string) {
    return this.#lock.run(() => this.#connection.executeScript(script));
  }

  async startTransaction(isolationLevel?: Parameters<Connection["startTransaction"]>[0]): Promise<Transaction> {
    // SQLite transactions are always serializable (as the stock adapter says).
    if (isolationLevel && isolationLevel !== "SERIALIZABLE") {
      throw new Error(`SQLite does not support the ${isolationLevel} isolation level`);
    }
    const release = await this.#lock.acquire();
    try {
      await this.#connection.executeRaw(statement("BEGIN IMMEDIATE"));
    } catch (error) {
      release();
      throw error;
    }
    return new SerializedTransaction(this.#connection, release);
  }

  dispose() {
    return this.#connection.dispose();
  }
}

/**
 * An open transaction: holds the lock, and runs its queries on the connection
 * directly. Prisma ends it by sending COMMIT or ROLLBACK through executeRaw
 * (usePhantomQuery: false), then calling commit() or rollback(), which
 * release the lock.
 */
class SerializedTransaction implements Transaction {
  readonly options = { usePhantomQuery: false };
  readonly provider: Transaction["provider"];
  readonly adapterName: string;
  readonly #connection: Connection;
  readonly #release: () => void;

  constructor(connection: Connection, release: () => void) {
    this.#connection = connection;
    this.#release = release;
    this.provider = connection.provider;
    this.adapterName = connection.adapterName;
  }

  queryRaw(query: Query) {
    return this.#connection.queryRaw(query);
  }

  async executeRaw(query: Query) {
    try {
      return await this.#connection.executeRaw(query);
    } catch (error) {
      // If COMMIT or ROLLBACK itself fails, Prisma calls neither commit() nor
      // rollback(): end the transaction here, or the connection would stay
      // inside it and the lock would never be released.
      if (query.sql === "COMMIT" || query.sql === "ROLLBACK") {
        await this.#connection.executeRaw(statement("ROLLBACK")).catch(() => {}); // "no transaction is active" is fine
        this.#release();
      }
      throw error;
    }
  }

  commit() {
    this.#release();
    return Promise.resolve();
  }

  rollback() {
    this.#release();
    return Promise.resolve();
  }
}
