import { json } from "@remix-run/node";
import { readiness } from "~/services/health.server";

/**
 * Readiness, for the load balancer: 200 when this instance should get
 * traffic, 503 with the reason when not (stopping, the database does not
 * answer, migrations pending), both with the release (decision 050).
 */
export async function loader() {
  const answer = await readiness();
  return json(answer, { status: answer.status === "ready" ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
