import { createCookieSessionStorage, redirect } from "@remix-run/node";
import { secureCookies, sessionSecret } from "~/utils/env.server";
import type { Message } from "~/lib/messages";

/**
 * Messages after a redirect (Epic Stack's toast.server.ts): they travel in a
 * one-time cookie, so a plain form post shows its toast without JavaScript.
 */
const storage = createCookieSessionStorage<Record<string, never>, { toast: Message }>({
  cookie: {
    name: "chillpb_toast",
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: secureCookies,
    secrets: [sessionSecret],
  },
});

export async function redirectWithToast(url: string, toast: Message, init: ResponseInit = {}) {
  const session = await storage.getSession();
  session.flash("toast", toast);
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await storage.commitSession(session));
  return redirect(url, { ...init, headers });
}

/** The waiting toast, if any, and the cookie that clears it. */
export async function readToast(request: Request) {
  const session = await storage.getSession(request.headers.get("Cookie"));
  const toast = session.get("toast") ?? null;
  return { toast, setCookie: toast ? await storage.destroySession(session) : null };
}
