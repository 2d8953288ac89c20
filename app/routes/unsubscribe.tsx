import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { brand } from "~/lib/brand";
import { LegalPage } from "~/components/legal-page";
import { readFormData } from "~/utils/forms.server";
import { maskEmail } from "~/lib/masking";
import { findSubscriberByToken, unsubscribe } from "~/models/newsletter.server";
import { privatePageMeta } from "~/lib/seo";

export const meta: MetaFunction = () => privatePageMeta("Unsubscribe");

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token")?.slice(0, 100) ?? "";
  const subscriber = token ? await findSubscriberByToken(token) : null;
  return {
    token,
    email: subscriber ? maskEmail(subscriber.email) : null,
    alreadyUnsubscribed: Boolean(subscriber?.unsubscribedAt),
  };
}

/**
 * The page's button, and mail programs' one-click unsubscribe (RFC 8058:
 * the body `List-Unsubscribe=One-Click`, the token in the URL), both POST
 * here. From any site: the token is the proof (decision 101).
 */
export async function action({ request }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const formData = await readFormData(request, { fromAnySite: true });
  const token = String(formData.get("token") ?? url.searchParams.get("token") ?? "").slice(0, 100);
  const subscriber = token ? await findSubscriberByToken(token) : null;
  if (!subscriber) return data({ done: false }, { status: 404 });
  await unsubscribe(token);
  return { done: true };
}

export default function Unsubscribe() {
  const { token, email, alreadyUnsubscribed } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <LegalPage title="Newsletter" updated="">
      {!email ? (
        <p>This unsubscribe link is not valid. If you keep getting emails you don&apos;t want, write to {brand.contactEmail}.</p>
      ) : result?.done || alreadyUnsubscribed ? (
        <p role="status">
          {email} is unsubscribed. You won&apos;t get any more newsletters from us. Changed your mind? Sign up again on our home page anytime.
        </p>
      ) : (
        <Form method="post">
          <input type="hidden" name="token" value={token} />
          <p>
            Stop sending the {brand.name} newsletter to {email}?
          </p>
          <button type="submit" className="button button--primary">
            Unsubscribe
          </button>
        </Form>
      )}
    </LegalPage>
  );
}
