import { Link } from "@remix-run/react";
import { brand } from "~/lib/brand";
import { ArrowLeftIcon } from "~/components/icons";

export function NotFound() {
  return (
    <main className="status-page" id="main">
      <p className="status-page__code" aria-hidden="true">
        404
      </p>
      <h1>Oops! Page not found</h1>
      <p>This treat seems to have melted away. Let&apos;s get you back to something delicious.</p>
      <Link to="/" className="button button--primary">
        <ArrowLeftIcon /> Return to Home
      </Link>
    </main>
  );
}

/**
 * Shown when something fails that we did not expect. The cart is a cookie the
 * error never touches, so it is still there when the visitor goes back.
 */
export function UnexpectedError() {
  return (
    <main className="status-page" id="main">
      <h1>Unexpected Application Error!</h1>
      <p>
        Something went wrong on our side. Your cart is saved. Please try again, or write to us at{" "}
        <a href={`mailto:${brand.contactEmail}`}>{brand.contactEmail}</a>.
      </p>
      <div className="status-page__actions">
        <a href="/shop" className="button button--primary">
          Back to the shop
        </a>
        <a href="/" className="button button--ghost">
          Return to Home
        </a>
      </div>
    </main>
  );
}
