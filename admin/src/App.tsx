import { MantineProvider, createTheme, type MantineColorsTuple } from "@mantine/core";
import { Notifications } from "@mantine/notifications";
import { Authenticated, Refine } from "@refinedev/core";
import routerProvider, { CatchAllNavigate } from "@refinedev/react-router";
import { lazy, Suspense, type ComponentType } from "react";
import { BrowserRouter, Outlet, Route, Routes } from "react-router";
import { AdminLayout } from "./components/layout";
import { Loading } from "./components/loading";
import { LoginPage } from "./pages/login";
import { NotFoundPage } from "./pages/not-found";
import { OrderList } from "./pages/orders/list";
import { OrderShow } from "./pages/orders/show";
import { accessControlProvider } from "./providers/access-control";
import { authProvider } from "./providers/auth";
import { catalogDataProvider } from "./providers/catalog-data";
import { dataProvider } from "./providers/data";
import { notificationProvider } from "./providers/notifications";

// The dashboard's chart library is loaded only when the dashboard is opened.
const DashboardPage = lazy(() => import("./pages/dashboard"));
// The owner's pages, loaded when first opened.
const ProductListPage = lazy(() => import("./pages/products/list"));
const ProductEditPage = lazy(() => import("./pages/products/edit"));
const DiscountCodeListPage = lazy(() => import("./pages/discount-codes/list"));
const DiscountCodeEditPage = lazy(() => import("./pages/discount-codes/edit"));

const lazyPage = (Page: ComponentType) => (
  <Suspense fallback={<Loading />}>
    <Page />
  </Suspense>
);

const chocolate: MantineColorsTuple = [
  "#fbf3ec",
  "#f1e3d5",
  "#e3c5a9",
  "#d6a67b",
  "#ca8b54",
  "#c37a3b",
  "#a8652c",
  "#7a4a2f",
  "#5b3421",
  "#3f2417",
];

const theme = createTheme({
  primaryColor: "chocolate",
  colors: { chocolate },
  primaryShade: 8,
  defaultRadius: "md",
  fontFamily: "Nunito, system-ui, -apple-system, Segoe UI, sans-serif",
  headings: { fontFamily: "Fredoka, Nunito, system-ui, sans-serif", fontWeight: "600" },
});

export function App() {
  return (
    <MantineProvider theme={theme}>
      <Notifications position="top-right" />
      <BrowserRouter basename="/admin">
        <Refine
          dataProvider={{ default: dataProvider, catalog: catalogDataProvider }}
          authProvider={authProvider}
          accessControlProvider={accessControlProvider}
          notificationProvider={notificationProvider}
          routerProvider={routerProvider}
          // The resources also make the header's nav (useMenu): its links, labels and order.
          resources={[
            { name: "orders", list: "/", show: "/orders/:id", meta: { label: "Orders" } },
            { name: "dashboard", list: "/dashboard", meta: { label: "Dashboard" } },
            { name: "products", list: "/products", edit: "/products/:id", meta: { label: "Products", dataProviderName: "catalog" } },
            {
              name: "discount-codes",
              list: "/discount-codes",
              create: "/discount-codes/new",
              edit: "/discount-codes/:id",
              meta: { label: "Discount codes", dataProviderName: "catalog" },
            },
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
              <Route path="products" element={lazyPage(ProductListPage)} />
              <Route path="products/:id" element={lazyPage(ProductEditPage)} />
              <Route path="discount-codes" element={lazyPage(DiscountCodeListPage)} />
              <Route path="discount-codes/new" element={lazyPage(DiscountCodeEditPage)} />
              <Route path="discount-codes/:code" element={lazyPage(DiscountCodeEditPage)} />
            </Route>
            <Route path="login" element={<LoginPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Routes>
        </Refine>
      </BrowserRouter>
    </MantineProvider>
  );
}
