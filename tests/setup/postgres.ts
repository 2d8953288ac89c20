import { withClient } from "../../scripts/scratch-postgres.mjs";

/**
 * A private copy of the run's template database. PostgreSQL refuses to copy a
 * database someone is connected to; the template's migrator and seed may take
 * a moment to let go, so that refusal is retried briefly.
 */
export async function copyDatabase(serverUrl: string, template: string, name: string) {
  await withClient(serverUrl, async (client) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        return;
      } catch (error) {
        const busy = error instanceof Error && /being accessed by other users/.test(error.message);
        if (!busy || attempt >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  });
}
