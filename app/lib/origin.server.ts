import { env } from "~/env.server";

/** The shop's public origin for absolute links (canonical, Open Graph): PUBLIC_URL, else the request's. */
export function publicOrigin(request: Request) {
  return (env.PUBLIC_URL ?? new URL(request.url).origin).replace(/\/$/, "");
}
