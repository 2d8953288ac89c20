import { describe, expect, it } from "vitest";
import { OperatorRole } from "~/generated/prisma/enums";
import { OPERATOR_ROLES, PERMISSIONS, hasPermission, isOperatorRole } from "~/lib/operators";

describe("operator roles", () => {
  it("lists exactly the database's roles", () => {
    expect(OPERATOR_ROLES).toEqual(Object.values(OperatorRole));
  });

  it("lets staff see and move orders and read the dashboard and the shop's terms, and nothing else", () => {
    const staff = PERMISSIONS.filter((permission) => hasPermission("staff", permission));
    expect(staff).toEqual(["orders.view", "orders.update-status", "dashboard.view", "settings.view"]);
  });

  it("lets the owner do everything", () => {
    expect(PERMISSIONS.every((permission) => hasPermission("owner", permission))).toBe(true);
  });

  it("recognises only the two roles", () => {
    expect(OPERATOR_ROLES.every(isOperatorRole)).toBe(true);
    for (const other of ["Owner", "admin", "", null, undefined, 0]) expect(isOperatorRole(other)).toBe(false);
  });
});
