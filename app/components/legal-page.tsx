import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { ArrowLeftIcon } from "~/components/icons";
import { Logo } from "~/components/logo";
import { SiteFooter } from "~/components/site-footer";

export function LegalPage({ title, updated, children }: { title: string; updated: string; children: ReactNode }) {
  return (
    <>
      <header className="shop-header">
        <div className="container shop-header__inner">
          <Link to="/" className="button button--ghost button--small">
            <ArrowLeftIcon /> Back to Home
          </Link>
          <Logo className="shop-header__logo" />
        </div>
      </header>
      <main id="main" className="container legal">
        <h1>{title}</h1>
        {updated ? <p className="legal__updated">Last updated {updated}</p> : null}
        {children}
      </main>
      <SiteFooter />
    </>
  );
}
