import { env } from "~/utils/env.server";

/**
 * The shop's public origin for absolute links (emails, payment return URLs,
 * canonical and Open Graph links): PUBLIC_URL, which production requires.
 * Never the request's Host header, which the client writes; the demo without
 * PUBLIC_URL links to http://localhost:PORT.
 */
export function publicOrigin() {
  return (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, "");
}
