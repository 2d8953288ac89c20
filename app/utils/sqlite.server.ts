import { PrismaLibSQL } from "@prisma/adapter-libsql";

/**
 * The app's SQLite driver adapter: Prisma's libSQL adapter (@libsql/client on
 * a local file, prebuilt N-API binaries, so it runs on Node 22, 24 and 26
 * without a compiler), wrapped so that it is safe with interactive
 * transactions and with several processes. See docs/decisions/014.
 *
 * 1. One connection, one transaction at a time, and nothing else meanwhile.
 *    A process has a single libSQL connection. The stock adapter's own
 *    transactions are not used: @libsql/client's `transaction()` issues a
 *    deferred BEGIN and hands its connection to the transaction, then opens a
 *    fresh connection for later queries, one that has none of the PRAGMAs
 *    below (no busy timeout). Here a transaction is a BEGIN IMMEDIATE on the
 *    one connection, and every top-level query waits for a lock that an open
 *    transaction holds until Prisma ends it: a plain query of another request
 *    that arrived between two of the transaction's awaits would otherwise
 *    run inside it, see its uncommitted rows, and have its write undone,
 *    after it was acknowledged, if the transaction rolls back.
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
 *    libSQL's local driver is synchronous: while it waits for another
 *    process's lock, this process's event loop waits too (at most the busy
 *    timeout).
 */

const BUSY_TIMEOUT_MS = 5_000;

/** Run on every connection when it opens, in this order. */
const PRAGMAS = [
  // First, so that the PRAGMAs after it wait for another process's lock too.
  // @libsql/client has no option for it, and libSQL's default is 0 (fail at once).
  `PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`,
  // Stored in the file: every later connection, of any process, uses WAL too.
  "PRAGMA journal_mode = WAL",
  // Safe with WAL: a power cut may lose the last commits, never corrupt the file.
  "PRAGMA synchronous = NORMAL",
  // libSQL's build default; said here so it does not depend on that.
  "PRAGMA foreign_keys = ON",
];

// The driver adapter interface (@prisma/driver-adapter-utils), as the stock adapter declares it.
type Connection = Awaited<ReturnType<PrismaLibSQL["connect"]>>;
type Transaction = Awaited<ReturnType<Connection["startTransaction"]>>;
type Query = Parameters<Connection["executeRaw"]>[0];

const statement = (sql: string): Query => ({ sql, args: [], argTypes: [] });

/**
 * The "file:" URL @libsql/client wants for a path. It percent-decodes the
 * path and cuts it at "?" or "#", so those (and "%" itself) are encoded.
 */
function fileUrl(file: string) {
  return file === ":memory:" ? file : `file:${file.replace(/[%?#]/g, encodeURIComponent)}`;
}

/** The adapter factory handed to `new PrismaClient({ adapter })`. */
export class SQLiteAdapter {
  readonly provider = "sqlite";
  readonly adapterName: string;
  readonly #factory: PrismaLibSQL;

  /** `file`: a path (or ":memory:"), without the "file:" of a DATABASE_URL. */
  constructor(file: string) {
    this.#factory = new PrismaLibSQL({ url: fileUrl(file) });
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
 * gives the connection away (see 1. above). Nothing here reaches into the
 * stock adapter's internals (its @libsql/client `client`, its own mutex,
 * which then only ever sees one query at a time): a version of it that keeps
 * Prisma's driver adapter interface keeps this working.
 */
class SerializedConnection implements Connection {
  readonly provider: Connection["provider"];
  readonly adapterName: string;
  readonly #connection: Connection;
  readonly #lock = new Lock();

  static async open(connection: Connection) {
    try {
      // One by one, not as a script: libSQL's exec refuses a statement that
      // returns a row, as `busy_timeout = …` and `journal_mode = WAL` do.
      for (const pragma of PRAGMAS) await connection.queryRaw(statement(pragma));
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
