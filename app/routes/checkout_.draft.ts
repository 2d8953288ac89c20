import type { ActionFunctionArgs } from "@remix-run/node";
import { draftFromForm, readDraft, saveDraft } from "~/utils/checkout-draft.server";
import { readFormData } from "~/utils/forms.server";

/**
 * The checkout page's quiet save while someone types (with JavaScript): the
 * form as it stands goes into the draft cookie, so a refresh finds it again.
 * It decides nothing and answers nothing but the cookie: the code applied and
 * the address checked stay as the checkout's own posts left them (a save
 * overtaken by a post must not undo what the post decided).
 */
export async function action({ request }: ActionFunctionArgs) {
  const typed = draftFromForm(await readFormData(request));
  const kept = await readDraft(request);
  const draft = { ...typed, appliedCode: kept?.appliedCode ?? "", checkedAddress: kept?.checkedAddress ?? "" };
  return new Response(null, { status: 204, headers: { "Set-Cookie": await saveDraft(draft), "Cache-Control": "no-store" } });
}
