import { useNonce } from "~/lib/nonce";

/**
 * Structured data for search engines. A JSON-LD block is data that no browser
 * runs, so the CSP has nothing to allow; it still carries the request's nonce,
 * like every inline script of the page. "<" is escaped so no text can close
 * the tag. The browser hides a nonce from the DOM, hence no hydration warning.
 */
export function JsonLd({ data }: { data: object }) {
  const nonce = useNonce();
  return (
    <script
      type="application/ld+json"
      nonce={nonce || undefined}
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: JSON.stringify(data).replace(/</g, "\\u003c") }}
    />
  );
}
