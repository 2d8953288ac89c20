import "@mantine/core/styles.layer.css";
import "@mantine/notifications/styles.layer.css";
import { Notifications } from "@mantine/notifications";
import { Authenticated, Refine } from "@refinedev/core";
import routerProvider, { CatchAllNavigate } from "@refinedev/react-router";
import { lazy, Suspense } from "react";
import { Outlet, Route, Routes } from "react-router";
import { AdminLayout } from "./components/layout";
import { Loading } from "./components/loading";
import { OrderList } from "./pages/orders/list";
import { authProvider } from "./providers/auth";
import { dataProvider } from "./providers/data";
import { notificationProvider } from "./providers/notifications";

// The orders list, where every operator lands, comes with the app; every other
// page is its own chunk, and the chart library comes with the dashboard only.
const OrderShow = lazy(() => import("./pages/orders/show").then((page) => ({ default: page.OrderShow })));
const DashboardPage = lazy(() => import("./pages/dashboard"));
const NotFoundPage = lazy(() => import("./pages/not-found").then((page) => ({ default: page.NotFoundPage })));

/** The signed-in operator's app: Refine over the shop's functions, its nav, toasts and pages. */
export default function OperatorApp() {
  return (
    <>
      <Notifications position="top-right" />
      <Refine
        dataProvider={dataProvider}
        authProvider={authProvider}
        notificationProvider={notificationProvider}
        routerProvider={routerProvider}
        // The resources also make the header's nav (useMenu): its links, labels and order.
        resources={[
          { name: "orders", list: "/", show: "/orders/:id", meta: { label: "Orders" } },
          { name: "dashboard", list: "/dashboard", meta: { label: "Dashboard" } },
        ]}
        options={{ syncWithLocation: true, disableTelemetry: true, warnWhenUnsavedChanges: false }}
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
            <Route path="orders/:id" element={<OrderShow />} />
            <Route path="dashboard" element={<DashboardPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      </Refine>
    </>
  );
}
