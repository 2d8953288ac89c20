import { json, type ActionFunctionArgs } from "@remix-run/node";
import { shopSettings } from "~/models/catalog.server";
import { settingsJson } from "~/models/settings.server";
import { requireAdmin } from "~/utils/auth.server";
import { handleFunction } from "~/utils/api.server";

/** The shop's terms for any operator: {} → { shippingFee, freeShippingThreshold, minimumOrder, kitchen, zones } (decision 052). */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("get-settings", request, async () => {
    await requireAdmin(request, "settings.view");
    return json(settingsJson(await shopSettings({ maxAgeMs: 0 })), { headers: { "Cache-Control": "no-store" } });
  });
}
