import type { AccessControlProvider } from "@refinedev/core";
import { hasPermission, isOperatorRole, OWNER_ONLY_MESSAGE, type OperatorRole, type Permission } from "@shop/operators";
import { getJson } from "../api";

/**
 * The permission each resource's actions need: the same table the server's
 * guards read (app/lib/operators.ts), so staff are not shown what the server
 * would refuse. `*` is every action without its own entry. A resource not
 * listed here is the owner's alone.
 */
const RESOURCE_PERMISSIONS: Record<string, Record<string, Permission>> = {
  orders: { "*": "orders.view", edit: "orders.update-status", refund: "orders.refund", export: "lists.view" },
  dashboard: { "*": "dashboard.view" },
  products: { "*": "products.manage" },
  "discount-codes": { "*": "discount-codes.manage" },
  subscribers: { "*": "lists.view" },
  inquiries: { "*": "lists.view" },
  operators: { "*": "operators.manage" },
};

function permissionFor(resource: string | undefined, action: string): Permission {
  const actions = resource ? RESOURCE_PERMISSIONS[resource] : undefined;
  return actions?.[action] ?? actions?.["*"] ?? "operators.manage";
}

let role: Promise<OperatorRole | null> | null = null;

/** The signed-in operator's role, asked once per sign-in (see forgetRole). */
function currentRole() {
  role ??= getJson<{ role?: unknown }>("/auth/me")
    .then((me) => (isOperatorRole(me.role) ? me.role : null))
    .catch(() => {
      role = null;
      return null;
    });
  return role;
}

/** Called on sign-in and sign-out: the next check asks the server again. */
export function forgetRole() {
  role = null;
}

export const accessControlProvider: AccessControlProvider = {
  async can({ resource, action }) {
    const current = await currentRole();
    const can = current !== null && hasPermission(current, permissionFor(resource, action));
    return can ? { can } : { can, reason: OWNER_ONLY_MESSAGE };
  },
  options: { buttons: { enableAccessControl: true, hideIfUnauthorized: true } },
};
