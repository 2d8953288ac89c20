import "@remix-run/node";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The visitor's address: the socket's, or X-Forwarded-For's when TRUST_PROXY=true. */
    clientAddress: string;
    /** This response's Content-Security-Policy nonce (server/http-guards.mjs); absent when a test calls a route directly. */
    cspNonce?: string;
  }
}
