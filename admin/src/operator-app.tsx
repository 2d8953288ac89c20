import "@mantine/core/styles.layer.css";
import "@mantine/notifications/styles.layer.css";
import { Notifications } from "@mantine/notifications";
import { Authenticated, Refine } from "@refinedev/core";
import routerProvider, { CatchAllNavigate } from "@refinedev/react-router";
import { lazy, Suspense } from "react";
import { Navigate, Outlet, Route, Routes } from "react-router";
import { AdminLayout } from "./components/layout";
import { Loading } from "./components/loading";
import { OrderList } from "./pages/orders/list";
import { accessControlProvider } from "./providers/access-control";
import { authProvider } from "./providers/auth";
import { catalogDataProvider } from "./providers/catalog-data";
import { dataProvider } from "./providers/data";
import { notificationProvider } from "./providers/notifications";
import { queryClientConfig } from "./query-client";
import { RESOURCES } from "./resources";

// The orders list, where every operator lands, comes with the app; every other
// page is its own chunk, and the chart library comes with the dashboard only.
const OrderShow = lazy(() => import("./pages/orders/show").then((page) => ({ default: page.OrderShow })));
const DashboardPage = lazy(() => import("./pages/dashboard"));
// The day's work, and its printed pages (which have no header or nav).
const PreparePage = lazy(() => import("./pages/prepare"));
const PreparePrintPage = lazy(() => import("./pages/prepare/print"));
// The owner's pages.
const SubscribersPage = lazy(() => import("./pages/lists/subscribers"));
const InquiriesPage = lazy(() => import("./pages/lists/inquiries"));
const CustomersPage = lazy(() => import("./pages/customers"));
const OperatorsPage = lazy(() => import("./pages/operators"));
const SystemPage = lazy(() => import("./pages/system"));
const ProductListPage = lazy(() => import("./pages/products/list"));
const ProductEditPage = lazy(() => import("./pages/products/edit"));
const ProductCreatePage = lazy(() => import("./pages/products/create"));
const DiscountCodeListPage = lazy(() => import("./pages/discount-codes/list"));
const DiscountCodeEditPage = lazy(() => import("./pages/discount-codes/edit"));
// Every operator's (staff read them); only the owner saves them.
const SettingsPage = lazy(() => import("./pages/settings"));
const NotFoundPage = lazy(() => import("./pages/not-found").then((page) => ({ default: page.NotFoundPage })));

/** The signed-in operator's app: Refine over the shop's functions, its nav, toasts and pages. */
export default function OperatorApp() {
  return (
    <>
      <Notifications position="top-right" />
      <Refine
        dataProvider={{ default: dataProvider, catalog: catalogDataProvider }}
        authProvider={authProvider}
        accessControlProvider={accessControlProvider}
        notificationProvider={notificationProvider}
        routerProvider={routerProvider}
        // The resources also make the header's nav (useMenu): its links, labels and order (resources.ts).
        resources={[...RESOURCES]}
        options={{
          syncWithLocation: true,
          disableTelemetry: true,
          warnWhenUnsavedChanges: false,
          reactQuery: { clientConfig: queryClientConfig },
        }}
      >
        <Routes>
          <Route
            element={
              <Authenticated key="signed-in" fallback={<CatchAllNavigate to="/login" />} loading={<Loading />}>
                <AdminLayout>
                  <Suspense fallback={<Loading />}>
                    <Outlet />
                  </Suspense>
                </AdminLayout>
              </Authenticated>
            }
          >
            <Route index element={<OrderList />} />
            {/* The list lives at the root; /admin/orders (what people type, and the menu's name for it) leads there. */}
            <Route path="orders" element={<Navigate to="/" replace />} />
            <Route path="orders/:id" element={<OrderShow />} />
            <Route path="prepare" element={<PreparePage />} />
            <Route path="dashboard" element={<DashboardPage />} />
            <Route path="products" element={<ProductListPage />} />
            <Route path="products/new" element={<ProductCreatePage />} />
            <Route path="products/:id" element={<ProductEditPage />} />
            <Route path="discount-codes" element={<DiscountCodeListPage />} />
            <Route path="discount-codes/new" element={<DiscountCodeEditPage />} />
            <Route path="discount-codes/:code" element={<DiscountCodeEditPage />} />
            <Route path="subscribers" element={<SubscribersPage />} />
            <Route path="inquiries" element={<InquiriesPage />} />
            <Route path="customers" element={<CustomersPage />} />
            <Route path="operators" element={<OperatorsPage />} />
            <Route path="settings" element={<SettingsPage />} />
            <Route path="system" element={<SystemPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Route>
          {/* A printed page: signed in, without the header and the nav. */}
          <Route
            element={
              <Authenticated key="signed-in-print" fallback={<CatchAllNavigate to="/login" />} loading={<Loading />}>
                <Suspense fallback={<Loading />}>
                  <Outlet />
                </Suspense>
              </Authenticated>
            }
          >
            <Route path="prepare/print" element={<PreparePrintPage />} />
          </Route>
        </Routes>
      </Refine>
    </>
  );
}
