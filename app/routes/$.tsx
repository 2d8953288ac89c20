import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { NotFound } from "~/components/error-pages";
import { brand } from "~/lib/brand";

/** Any path no other route claims: log it (so broken links can be found) and answer 404. */
export function loader({ request }: LoaderFunctionArgs) {
  const { pathname } = new URL(request.url);
  console.warn(`404 Not Found: ${pathname}`);
  throw new Response("Not Found", { status: 404 });
}

export const meta: MetaFunction = () => [{ title: `Page not found | ${brand.name}` }];

export default function CatchAll() {
  return <NotFound />;
}

export function ErrorBoundary() {
  return <NotFound />;
}
