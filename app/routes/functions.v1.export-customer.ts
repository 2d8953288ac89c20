import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { exportCustomer } from "~/models/customer-data.server";
import { requireAdmin } from "~/utils/auth.server";
import { handleFunction, readJsonBody } from "~/utils/api.server";

export const customerEmailSchema = z
  .object({ email: z.string({ required_error: "is required" }).trim().email("is not an email address").max(254, "is too long") })
  .strict();

/**
 * { email } → everything the shop holds about that mailbox, in any spelling:
 * { orders, subscriptions, inquiries, emails } (a customer's right to know;
 * decision 062). The owner's; each request recorded. Never cached.
 */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("export-customer", request, async () => {
    const admin = await requireAdmin(request, "customers.data");
    const { email } = await readJsonBody(request, customerEmailSchema);
    return json(await exportCustomer(email, admin.email), { headers: { "Cache-Control": "no-store" } });
  });
}
