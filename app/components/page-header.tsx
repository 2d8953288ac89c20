import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { ArrowLeftIcon } from "~/components/icons";
import { Logo } from "~/components/logo";

/** The sticky header of the inner pages: a way back, the logo, and whatever the page adds. */
export function PageHeader({ back, children }: { back?: { to: string; label: string }; children?: ReactNode }) {
  return (
    <header className="shop-header">
      <div className="container shop-header__inner">
        {back ? (
          <Link to={back.to} className="button button--ghost button--small">
            <ArrowLeftIcon /> {back.label}
          </Link>
        ) : null}
        <Logo className={back ? "shop-header__logo" : ""} />
        {children}
      </div>
    </header>
  );
}
