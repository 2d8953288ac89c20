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
import { RESOURCE_PAGES, RESOURCES } from "./resources";

// The orders list, where every operator lands, comes with the app; every other
// page is its own chunk (resources.ts), and the chart library comes with the
// dashboard only. The printed pages have no header or nav.
const PreparePrintPage = lazy(() => import("./pages/prepare/print"));
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
            {RESOURCE_PAGES.map(({ path, Page }) => (
              <Route key={path} path={path} element={<Page />} />
            ))}
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
