import type { AccessControlProvider } from "@refinedev/core";
import type { SerializeFrom } from "@remix-run/node";
import { OWNER_ONLY_MESSAGE } from "@shop/operators";
import type { loader as meLoader } from "~/routes/auth.me";
import { getJson } from "../api";
import { functionOf } from "../resources";

type Me = SerializeFrom<typeof meLoader>;

let callable: Promise<ReadonlySet<string>> | null = null;

/**
 * The functions the signed-in operator's role may call, as the shop says
 * (/auth/me, from each function's declared permission), asked once per
 * sign-in (see forgetRole). A failed ask rejects, and is forgotten so the
 * next check asks again: an owner on a flaky connection must see an error
 * with Try again, not be told a page is for owners only.
 */
function callableFunctions() {
  callable ??= getJson<Me>("/auth/me")
    .then((me) => new Set<string>(me.functions))
    .catch((error: unknown) => {
      callable = null;
      throw error;
    });
  return callable;
}

/** Called on sign-in and sign-out: the next check asks the server again. */
export function forgetRole() {
  callable = null;
}

export const accessControlProvider: AccessControlProvider = {
  /** Rejects when the shop cannot be asked: Refine's useCan then reports an error, not a refusal. */
  async can({ resource, action }) {
    const name = functionOf(resource, action);
    const can = name !== undefined && (await callableFunctions()).has(name);
    return can ? { can } : { can, reason: OWNER_ONLY_MESSAGE };
  },
  options: { buttons: { enableAccessControl: true, hideIfUnauthorized: true } },
};
