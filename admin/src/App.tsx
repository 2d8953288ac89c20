import { MantineProvider } from "@mantine/core";
import { Notifications } from "@mantine/notifications";
import { Authenticated, Refine } from "@refinedev/core";
import routerProvider, { CatchAllNavigate } from "@refinedev/react-router";
import { lazy, Suspense } from "react";
import { BrowserRouter, Outlet, Route, Routes } from "react-router";
import { AdminLayout } from "./components/layout";
import { Loading } from "./components/loading";
import { LoginPage } from "./pages/login";
import { NotFoundPage } from "./pages/not-found";
import { OrderList } from "./pages/orders/list";
import { OrderShow } from "./pages/orders/show";
import { authProvider } from "./providers/auth";
import { dataProvider } from "./providers/data";
import { notificationProvider } from "./providers/notifications";
import { cssVariablesResolver, theme } from "./theme";

// The dashboard's chart library is loaded only when the dashboard is opened.
const DashboardPage = lazy(() => import("./pages/dashboard"));

export function App() {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Notifications position="top-right" />
      <BrowserRouter basename="/admin">
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
                    <Outlet />
                  </AdminLayout>
                </Authenticated>
              }
            >
              <Route index element={<OrderList />} />
              <Route path="orders/:id" element={<OrderShow />} />
              <Route
                path="dashboard"
                element={
                  <Suspense fallback={<Loading />}>
                    <DashboardPage />
                  </Suspense>
                }
              />
            </Route>
            <Route path="login" element={<LoginPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Routes>
        </Refine>
      </BrowserRouter>
    </MantineProvider>
  );
}
