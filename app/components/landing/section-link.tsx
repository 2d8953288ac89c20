import { useNavigate } from "@remix-run/react";
import type { MouseEvent, ReactNode } from "react";

/**
 * A link to a section of the landing page (`#nutrition`). Without JavaScript
 * it is a plain fragment link. With it, the click goes through the router
 * rather than the browser: the browser's own fragment jump reaches React
 * Router as a 'popstate' without a history key, and its scroll restoration
 * then puts back the position saved for that key, so every jump after the
 * first stopped at the wrong place. Through the router each jump is a new
 * history entry that scrolls to its section (smoothly, unless the visitor
 * asks for reduced motion: the stylesheet decides), and Back returns to
 * where the visitor was. Focus moves to the section, as a fragment jump does.
 */
export function SectionLink({ hash, className, children }: { hash: string; className?: string; children: ReactNode }) {
  const navigate = useNavigate();

  function jump(event: MouseEvent<HTMLAnchorElement>) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const section = document.getElementById(hash);
    if (!section) return;
    event.preventDefault();
    navigate({ hash: `#${hash}` }, { preventScrollReset: true });
    if (!section.hasAttribute("tabindex")) section.setAttribute("tabindex", "-1");
    // The router scrolls once the navigation has rendered; focus must not scroll first.
    section.focus({ preventScroll: true });
  }

  return (
    <a href={`#${hash}`} className={className} onClick={jump}>
      {children}
    </a>
  );
}
