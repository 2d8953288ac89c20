import { json, type ActionFunctionArgs } from "@remix-run/node";
import { forgetCustomer } from "~/models/customer-data.server";
import { requireAdmin } from "~/utils/auth.server";
import { apiError, handleFunction, readJsonBody } from "~/utils/api.server";
import { customerEmailSchema } from "./functions.v1.export-customer";

/**
 * { email } → { changed: { orders, subscriptions, inquiries, emails, geocoderEntries } }:
 * the mailbox's personal data erased (a customer's right to delete; decision
 * 062), amounts and dates kept for the books. The owner's; recorded. Refused
 * (409) while one of its orders is still to be paid or delivered.
 */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("forget-customer", request, async () => {
    const admin = await requireAdmin(request, "customers.data");
    const { email } = await readJsonBody(request, customerEmailSchema);
    const result = await forgetCustomer(email, admin.email);
    if (!result.ok) {
      return apiError(409, `This customer still has orders to pay or deliver (${result.openOrders.join(", ")}): forget them once those are delivered or refunded.`);
    }
    return json({ changed: result.changed }, { headers: { "Cache-Control": "no-store" } });
  });
}
