import { lazy, type ComponentType, type LazyExoticComponent } from "react";
import type { FunctionName } from "~/functions/registry.server";

/**
 * The dashboard's resources (Refine's `resources`: the header's nav, its
 * links, labels and order) and the function each action calls. Access
 * control reads the functions (providers/access-control.ts): an operator
 * sees an action when the shop says their role may call its function
 * (/auth/me), so a button the admin shows is a call the server accepts. An
 * action without a function of its own is the resource's `list`. Each
 * page is its own chunk, routed at its action's path (operator-app.tsx), so
 * a new page is one entry here.
 */
type Actions = { list: FunctionName } & Partial<Record<"show" | "edit" | "create" | "refund" | "customer-details" | "given-up", FunctionName>>;

type PageAction = "list" | "show" | "create" | "edit";

type Resource = {
  name: string;
  list: string;
  show?: string;
  create?: string;
  edit?: string;
  meta: { label: string; dataProviderName?: "catalog"; functions: Actions };
  pages: Partial<Record<PageAction, LazyExoticComponent<ComponentType>>>;
};

const page = (load: () => Promise<{ default: ComponentType }>) => lazy(load);
// One page for a new code and an old one: the same component as the one leads to the other.
const discountCodeEdit = page(() => import("./pages/discount-codes/edit"));
// A new campaign and a saved one (its editor, or its progress once it has started): one page.
const campaignPage = page(() => import("./pages/campaigns/edit"));

export const RESOURCES = [
  {
    name: "orders",
    list: "/",
    show: "/orders/:id",
    meta: {
      label: "Orders",
      functions: {
        list: "get-orders",
        show: "get-order",
        edit: "update-order-status",
        refund: "refund-order",
        "customer-details": "get-customer-details",
        "given-up": "get-given-up-checkouts",
      },
    },
    // The list, where every operator lands, comes with the app (operator-app.tsx).
    pages: { show: page(() => import("./pages/orders/show").then((module) => ({ default: module.OrderShow }))) },
  },
  // The day's work: every operator's, masked; its printed pages carry names and addresses for the owner only (orders' customer-details).
  {
    name: "prepare",
    list: "/prepare",
    meta: { label: "Prepare", functions: { list: "get-preparation" } },
    pages: { list: page(() => import("./pages/prepare")) },
  },
  {
    name: "dashboard",
    list: "/dashboard",
    meta: { label: "Dashboard", functions: { list: "get-dashboard" } },
    pages: { list: page(() => import("./pages/dashboard")) },
  },
  {
    name: "products",
    list: "/products",
    create: "/products/new",
    edit: "/products/:id",
    meta: { label: "Products", dataProviderName: "catalog", functions: { list: "get-products", edit: "update-product", create: "create-product" } },
    pages: {
      list: page(() => import("./pages/products/list")),
      create: page(() => import("./pages/products/create")),
      edit: page(() => import("./pages/products/edit")),
    },
  },
  {
    name: "discount-codes",
    list: "/discount-codes",
    create: "/discount-codes/new",
    edit: "/discount-codes/:id",
    meta: {
      label: "Discount codes",
      dataProviderName: "catalog",
      functions: { list: "get-discount-codes", edit: "save-discount-code", create: "save-discount-code" },
    },
    pages: { list: page(() => import("./pages/discount-codes/list")), create: discountCodeEdit, edit: discountCodeEdit },
  },
  {
    name: "subscribers",
    list: "/subscribers",
    meta: { label: "Subscribers", functions: { list: "get-subscribers" } },
    pages: { list: page(() => import("./pages/lists/subscribers")) },
  },
  // The owner's emails to the family list, and importing a list into it (decision 101).
  {
    name: "campaigns",
    list: "/campaigns",
    create: "/campaigns/new",
    edit: "/campaigns/:id",
    meta: { label: "Campaigns", functions: { list: "get-campaigns", edit: "save-campaign", create: "save-campaign" } },
    pages: { list: page(() => import("./pages/campaigns/list")), create: campaignPage, edit: campaignPage },
  },
  {
    name: "inquiries",
    list: "/inquiries",
    meta: { label: "Inquiries", functions: { list: "get-inquiries" } },
    pages: { list: page(() => import("./pages/lists/inquiries")) },
  },
  {
    name: "customers",
    list: "/customers",
    meta: { label: "Customer data", functions: { list: "export-customer" } },
    pages: { list: page(() => import("./pages/customers")) },
  },
  {
    name: "operators",
    list: "/operators",
    meta: { label: "Operators", functions: { list: "get-operators" } },
    pages: { list: page(() => import("./pages/operators")) },
  },
  // Staff read the shop's terms; only the owner changes them.
  {
    name: "settings",
    list: "/settings",
    meta: { label: "Settings", functions: { list: "get-settings", edit: "save-settings" } },
    pages: { list: page(() => import("./pages/settings")) },
  },
  { name: "system", list: "/system", meta: { label: "System", functions: { list: "get-system" } }, pages: { list: page(() => import("./pages/system")) } },
] as const satisfies readonly Resource[];

/** Each page of the resources with the path it is routed at, for the router. */
export const RESOURCE_PAGES = RESOURCES.flatMap((resource: Resource) =>
  (["list", "show", "create", "edit"] as const).flatMap((action) => {
    const path = resource[action];
    const Page = resource.pages[action];
    return path && Page ? [{ path, Page }] : [];
  }),
);

export type ResourceName = (typeof RESOURCES)[number]["name"];
export type ResourceAction = keyof Actions;

/** The function an action of a resource calls, or undefined for a resource the dashboard does not have. */
export function functionOf(resource: string | undefined, action: string): FunctionName | undefined {
  const functions: Actions | undefined = RESOURCES.find((candidate) => candidate.name === resource)?.meta.functions;
  if (!functions) return undefined;
  return (action in functions ? functions[action as ResourceAction] : undefined) ?? functions.list;
}
