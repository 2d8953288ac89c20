import { json } from "@remix-run/node";
import { liveness } from "~/services/health.server";

/**
 * Liveness, for a supervisor or an orchestrator: 200 whenever the process
 * answers, with its release. It asks no database, so an outage there does not
 * get every instance restarted; the load balancer asks /readyz (decision 050).
 */
export function loader() {
  return json(liveness(), { headers: { "Cache-Control": "no-store" } });
}
