import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { reconcilePayments } from "~/models/orphan-orders.server";
import { requireAdmin } from "~/utils/auth.server";
import { handleFunction, readJsonBody } from "~/utils/api.server";

const bodySchema = z.object({}).strict();

/**
 * The owner only: {} → { checked, paid, expired }. Asks Stripe now about
 * every unpaid order whose payment page was opened, whatever its age, and
 * applies what it finds as the webhook would (the job does the same every
 * two minutes for recent pages). For the morning after a webhook outage.
 */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("reconcile-payments", request, async () => {
    await requireAdmin(request, "payments.reconcile");
    await readJsonBody(request, bodySchema);
    return json(await reconcilePayments({ all: true }), { headers: { "Cache-Control": "no-store" } });
  });
}
