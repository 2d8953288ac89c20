// Which PostgreSQL the shop uses: the server of DATABASE_URL, or with none
// the embedded one in EMBEDDED_DATABASE_DIR, var/postgres by default
// (docs/decisions/035).
import { EmbeddedPostgresError, embeddedPostgresUrls, startEmbeddedPostgres } from "./embedded-postgres.mjs";

/**
 * @typedef {{ release: () => Promise<void>, releaseSync: () => void }} OpenDatabase
 * @typedef {{ url: string, embedded: boolean, open: () => Promise<OpenDatabase> }} Database
 */

const nothingToRelease = { release: async () => undefined, releaseSync: () => undefined };

/**
 * The database to use, with DATABASE_URL set to it for everything that runs
 * after (the app, the migrations, the seeds). Nothing is started yet: `open()`
 * starts the embedded server when there is one; its `release()` lets go of
 * it, and the last process to let go stops it.
 * @returns {Promise<Database>}
 */
export async function chooseDatabase() {
  const url = process.env.DATABASE_URL;
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url)) {
      throw new EmbeddedPostgresError(
        `DATABASE_URL must be a PostgreSQL URL (postgresql://user:password@host:5432/chillpb), not one starting ${JSON.stringify(url.split(":")[0] + ":")}. ` +
          "The shop no longer runs on SQLite: leave DATABASE_URL unset for the embedded PostgreSQL under var/postgres.",
      );
    }
    return { url, embedded: false, open: async () => nothingToRelease };
  }
  const dir = process.env.EMBEDDED_DATABASE_DIR || "var/postgres";
  const planned = await embeddedPostgresUrls({ dir });
  process.env.DATABASE_URL = planned.url;
  return {
    url: planned.url,
    embedded: true,
    open: async () => {
      const server = await startEmbeddedPostgres({ dir });
      if (server.url !== planned.url) {
        server.releaseSync();
        throw new EmbeddedPostgresError("The embedded database's port was taken while the shop started: start it again.");
      }
      return server;
    },
  };
}

export { EmbeddedPostgresError };
