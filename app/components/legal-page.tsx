import type { ReactNode } from "react";
import { PageHeader } from "~/components/page-header";
import { SiteFooter } from "~/components/site-footer";

export function LegalPage({ title, updated, children }: { title: string; updated: string; children: ReactNode }) {
  return (
    <>
      <PageHeader back={{ to: "/", label: "Back to Home" }} />
      <main id="main" className="container legal">
        <h1>{title}</h1>
        {updated ? <p className="legal__updated">Last updated {updated}</p> : null}
        {children}
      </main>
      <SiteFooter />
    </>
  );
}
