import { useEffect, useRef } from "react";
import { MenuIcon } from "~/components/icons";
import { SectionLink } from "~/components/landing/section-link";

export const landingSections = [
  { hash: "products", label: "Products" },
  { hash: "nutrition", label: "Nutrition" },
  { hash: "about", label: "Our Story" },
  { hash: "locations", label: "Find Us" },
];

/**
 * The landing sections' menu on a phone: a <details> disclosure, so it opens
 * and its links work without JavaScript (while it is open, the stylesheet
 * scrolls a section to below the open menu). With JavaScript it also closes
 * when a link is chosen, on a click elsewhere and on Escape.
 */
export function LandingMenu() {
  const menu = useRef<HTMLDetailsElement>(null);

  useEffect(() => {
    function closeOnClick(event: MouseEvent) {
      const details = menu.current;
      if (!details?.open) return;
      const target = event.target as Element;
      // A chosen link closes it before the browser scrolls, so the section stops below the header alone.
      if (!details.contains(target) || target.closest(".landing-menu__panel a")) details.open = false;
    }
    function closeOnEscape(event: KeyboardEvent) {
      const details = menu.current;
      if (event.key !== "Escape" || !details?.open) return;
      details.open = false;
      details.querySelector("summary")?.focus();
    }
    document.addEventListener("click", closeOnClick);
    document.addEventListener("keydown", closeOnEscape);
    return () => {
      document.removeEventListener("click", closeOnClick);
      document.removeEventListener("keydown", closeOnEscape);
    };
  }, []);

  return (
    <details className="landing-menu" ref={menu}>
      <summary className="landing-menu__button">
        <MenuIcon />
        <span className="visually-hidden">Menu</span>
      </summary>
      <nav aria-label="Main" className="landing-menu__panel">
        <ul>
          {landingSections.map((section) => (
            <li key={section.hash}>
              <SectionLink hash={section.hash}>{section.label}</SectionLink>
            </li>
          ))}
        </ul>
      </nav>
    </details>
  );
}
