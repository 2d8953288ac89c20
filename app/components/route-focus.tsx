import { useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * After a client-side move to another page, focus goes to that page's heading
 * (its `main h1`), as it would start at the top of a freshly loaded page;
 * otherwise it stays on a link that is no longer there and the next Tab starts
 * from the top of the document. Changes of the query alone (a filter, the open
 * cart) keep focus where it is; the first render leaves it to the browser.
 */
export function RouteFocus() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);

  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const heading = document.querySelector<HTMLElement>("main h1");
    if (!heading) return;
    if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
    // The scroll is ScrollRestoration's (top for a new page, the old place after Back).
    heading.focus({ preventScroll: true });
  }, [pathname]);

  return null;
}
