import { useEffect } from "react";
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
/**
 * `report`: the error the browser met, sent once to /client-errors (decision
 * 055). A server's error reaches the page as "Unexpected Server Error" and was
 * reported by the server already.
 */
export function UnexpectedError({ report = null }: { report?: unknown }) {
  useEffect(() => {
    if (!report) return;
    const message = report instanceof Error ? `${report.name}: ${report.message}` : String(report);
    if (message.endsWith("Unexpected Server Error")) return;
    const body = JSON.stringify({ message: message.slice(0, 500), path: window.location.pathname.slice(0, 200) });
    navigator.sendBeacon?.("/client-errors", new Blob([body], { type: "application/json" }));
  }, [report]);
  return (
    <main className="status-page" id="main">
      <h1>Unexpected Application Error!</h1>
      <p>
        Something went wrong on our side. Your cart is saved. Please try again, or write to us at{" "}
        <a href={`mailto:${brand.contactEmail}`}>{brand.contactEmail}</a>.
      </p>
      <StatusPageActions />
    </main>
  );
}

/**
 * A request the shop refused as sent (4xx other than 404: text it cannot
 * accept, a body too large). `detail` is the server's own sentence.
 */
export function RequestRefused({ detail }: { detail: string | null }) {
  return (
    <main className="status-page" id="main">
      <h1>Sorry, we could not take that</h1>
      <p>{detail ?? "Something in that request could not be accepted. Please check what you entered and try again."}</p>
      <StatusPageActions />
    </main>
  );
}

/** The ways on from an error page: the shop, and home. */
function StatusPageActions() {
  return (
    <div className="status-page__actions">
      <a href="/shop" className="button button--primary">
        Back to the shop
      </a>
      <a href="/" className="button button--ghost">
        Return to Home
      </a>
    </div>
  );
}
