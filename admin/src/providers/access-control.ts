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
  orders: { "*": "orders.view", edit: "orders.update-status", refund: "orders.refund", "customer-details": "orders.customer-details", export: "lists.view" },
  // The day's work: every operator's, masked; its printed pages carry names and addresses for the owner only (orders' customer-details).
  prepare: { "*": "orders.view" },
  dashboard: { "*": "dashboard.view" },
  products: { "*": "products.manage" },
  "discount-codes": { "*": "discount-codes.manage" },
  subscribers: { "*": "lists.view" },
  inquiries: { "*": "lists.view" },
  customers: { "*": "customers.data" },
  operators: { "*": "operators.manage" },
  // Staff read the shop's terms; only the owner changes them.
  settings: { "*": "settings.view", edit: "settings.manage" },
  system: { "*": "system.manage" },
  emails: { "*": "system.manage" },
};

function permissionFor(resource: string | undefined, action: string): Permission {
  const actions = resource ? RESOURCE_PERMISSIONS[resource] : undefined;
  return actions?.[action] ?? actions?.["*"] ?? "operators.manage";
}

let role: Promise<OperatorRole | null> | null = null;

/**
 * The signed-in operator's role, asked once per sign-in (see forgetRole).
 * A failed ask rejects, and is forgotten so the next check asks again: an
 * owner on a flaky connection must see an error with Try again, not be told
 * a page is for owners only.
 */
function currentRole() {
  role ??= getJson<{ role?: unknown }>("/auth/me")
    .then((me) => (isOperatorRole(me.role) ? me.role : null))
    .catch((error: unknown) => {
      role = null;
      throw error;
    });
  return role;
}

/** Called on sign-in and sign-out: the next check asks the server again. */
export function forgetRole() {
  role = null;
}

export const accessControlProvider: AccessControlProvider = {
  /** Rejects when the role cannot be asked: Refine's useCan then reports an error, not a refusal. */
  async can({ resource, action }) {
    const current = await currentRole();
    const can = current !== null && hasPermission(current, permissionFor(resource, action));
    return can ? { can } : { can, reason: OWNER_ONLY_MESSAGE };
  },
  options: { buttons: { enableAccessControl: true, hideIfUnauthorized: true } },
};
