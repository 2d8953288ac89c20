import { json } from "@remix-run/node";
import { db } from "~/utils/db.server";

/** For load balancers: 200 when the server can reach its database. */
export async function loader() {
  try {
    await db.product.count();
    return json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    console.error("Health check failed", error);
    return json({ status: "error" }, { status: 503, headers: { "Cache-Control": "no-store" } });
  }
}
