// The embedded PostgreSQL from the command line, for backups and restores
// (docs/operations.md, Backups): in EMBEDDED_DATABASE_DIR, var/postgres by default.
//   node scripts/embedded-database.mjs url     prints the shop database's URL (for pg_dump, pg_restore, psql)
//   node scripts/embedded-database.mjs start   starts the server and leaves it running (the next `npm start` uses it)
//   node scripts/embedded-database.mjs stop    stops it (stop the shop first)
//   node scripts/embedded-database.mjs restart restarts it (the shop stays up: its requests meanwhile answer 503)
import { embeddedPostgresUrls, restartEmbeddedPostgres, startEmbeddedPostgres, stopEmbeddedPostgres } from "../server/embedded-postgres.mjs";

const dir = process.env.EMBEDDED_DATABASE_DIR || "var/postgres";
const command = process.argv[2];
if (command === "url") {
  console.log((await embeddedPostgresUrls({ dir })).url);
} else if (command === "start") {
  const server = await startEmbeddedPostgres({ dir });
  // Started for someone else to use: this process lets go without stopping it.
  server.forget();
  console.log(`The embedded PostgreSQL is running: ${server.url.replace(/:[^:@/]+@/, ":…@")}`);
} else if (command === "stop") {
  console.log((await stopEmbeddedPostgres({ dir })) ? "Stopped the embedded PostgreSQL." : "The embedded PostgreSQL was not running.");
} else if (command === "restart") {
  console.log((await restartEmbeddedPostgres({ dir })) ? "Restarted the embedded PostgreSQL." : "The embedded PostgreSQL was not running.");
} else {
  console.error("Usage: node scripts/embedded-database.mjs url|start|stop|restart");
  process.exit(1);
}
