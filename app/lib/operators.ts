/**
 * Who may do what in the dashboard. The server's guards (`requireAdmin`) and
 * the admin app's access control both read this one table, so a button the
 * admin shows is a call the server accepts, and the other way round.
 */

/** Mirrors the database's OperatorRole enum (a unit test keeps them equal). */
export const OPERATOR_ROLES = ["owner", "staff"] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** A signed-in operator, as the server's guards hand it to a function. */
export type Admin = { id: string; email: string; role: OperatorRole };

export function isOperatorRole(value: unknown): value is OperatorRole {
  return typeof value === "string" && (OPERATOR_ROLES as readonly string[]).includes(value);
}

export const PERMISSIONS = [
  "orders.view",
  "orders.update-status",
  "dashboard.view",
  "orders.refund",
  /** An order's full customer details (name, email, phone, address): the owner's, and recorded each time. */
  "orders.customer-details",
  /** Checkouts given up unpaid: who started them and what was in them, the owner's. */
  "orders.given-up",
  "payments.reconcile",
  /** A customer's data, all of it (export) or erased (forget): the owner's, each request recorded. */
  "customers.data",
  "products.manage",
  "discount-codes.manage",
  "lists.view",
  /** The owner's emails to the family list, and importing a list (decision 101). */
  "campaigns.manage",
  "operators.manage",
  "settings.view",
  "settings.manage",
  "system.manage",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Staff see orders (masked) and move them along; owners may do everything. */
const STAFF_PERMISSIONS: ReadonlySet<Permission> = new Set(["orders.view", "orders.update-status", "dashboard.view", "settings.view"]);

export function hasPermission(role: OperatorRole, permission: Permission): boolean {
  return role === "owner" || STAFF_PERMISSIONS.has(permission);
}

/** The message a 403 answers with, and the admin shows in place of a page. */
export const OWNER_ONLY_MESSAGE = "Only the shop's owner can do this.";
