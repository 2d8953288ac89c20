import { Link } from "@remix-run/react";
import { brand } from "~/lib/brand";
import { InstagramIcon, MailIcon, PinIcon } from "~/components/icons";
import { Logo } from "~/components/logo";
import { SectionLink } from "~/components/landing/section-link";

const quickLinks = [
  { hash: "products", label: "Products" },
  { hash: "nutrition", label: "Nutrition" },
  { hash: "locations", label: "Locations" },
  { hash: "about", label: "About" },
];

/**
 * The footer of every storefront page. On the landing page the quick links
 * scroll smoothly to their sections; elsewhere they lead there.
 */
export function SiteFooter({ onLanding = false }: { onLanding?: boolean }) {
  return (
    <footer className="site-footer">
      <div className="container site-footer__grid">
        <div className="site-footer__brand">
          <Logo />
          <p>{brand.tagline}</p>
          <a href={brand.instagramUrl} className="site-footer__social" rel="noopener noreferrer" target="_blank">
            <InstagramIcon /> Follow us on Instagram <span className="visually-hidden">(opens in a new tab)</span>
          </a>
        </div>
        <nav aria-label="Quick links">
          <h2>Quick links</h2>
          <ul>
            {quickLinks.map((link) => (
              <li key={link.hash}>{onLanding ? <SectionLink hash={link.hash}>{link.label}</SectionLink> : <a href={`/#${link.hash}`}>{link.label}</a>}</li>
            ))}
            <li>
              <Link to="/shop">Shop</Link>
            </li>
            <li>
              <a href="/admin">Admin</a>
            </li>
          </ul>
        </nav>
        <div>
          <h2>Contact</h2>
          <ul>
            <li>
              <a href={`mailto:${brand.contactEmail}`}>
                <MailIcon /> {brand.contactEmail}
              </a>
            </li>
            <li>
              <span>
                <PinIcon /> {brand.city}
              </span>
            </li>
          </ul>
        </div>
        <nav aria-label="Legal">
          <h2>Legal</h2>
          <ul>
            <li>
              <Link to="/privacy">Privacy Policy</Link>
            </li>
            <li>
              <Link to="/terms">Terms of Service</Link>
            </li>
          </ul>
        </nav>
      </div>
      <p className="container site-footer__legal">
        © {new Date().getFullYear()} {brand.name}. Made with love (and peanut butter) in {brand.city}
      </p>
    </footer>
  );
}
