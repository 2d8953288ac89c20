import type { AuthProvider } from "@refinedev/core";
import type { OperatorRole } from "@shop/operators";
import { getJson, postForm } from "../api";
import { forgetRole } from "./access-control";

export type Identity = { email: string; role: OperatorRole };

/** Sign-in against the shop's /auth routes; the session lives in an httpOnly cookie. */
export const authProvider: AuthProvider = {
  async login({ email, password }: { email: string; password: string }) {
    try {
      forgetRole();
      await postForm("/auth/login", { email, password });
      return { success: true, redirectTo: "/" };
    } catch (error) {
      const message = (error as { message?: string }).message ?? "Sign-in failed.";
      return { success: false, error: { name: "Sign-in failed", message } };
    }
  },
  async logout() {
    forgetRole();
    await postForm("/auth/logout", {}).catch(() => undefined);
    return { success: true, redirectTo: "/login" };
  },
  async check() {
    try {
      await getJson("/auth/me");
      return { authenticated: true };
    } catch {
      return { authenticated: false, redirectTo: "/login", logout: true };
    }
  },
  async onError(error: { statusCode?: number }) {
    return error.statusCode === 401 ? { logout: true, redirectTo: "/login" } : {};
  },
  async getIdentity() {
    try {
      return await getJson<Identity>("/auth/me");
    } catch {
      return null;
    }
  },
};
