import { MantineProvider } from "@mantine/core";
import { lazy, Suspense, useEffect, useState, type ReactNode } from "react";
import { BrowserRouter, Navigate, Route, Routes, useLocation } from "react-router";
import { Loading } from "./components/loading";
import { LoginPage } from "./pages/login";
import { loadOperatorApp } from "./operator-app-loader";
import { authProvider } from "./providers/auth";
import { cssVariablesResolver, theme } from "./theme";

/**
 * The admin's shell: the sign-in page and a guard, nothing else. Refine, the
 * operator's pages and the chart library are in `operator-app.tsx` and its
 * page chunks, which a browser fetches only once the operator is signed in,
 * so the sign-in page stays light (decision 018).
 */
const OperatorApp = lazy(loadOperatorApp);

/**
 * Asks the shop whether this browser is signed in before the operator app is
 * fetched: a visitor who is not goes to the sign-in page without downloading
 * it. Inside, Refine's <Authenticated> keeps checking (a session that ends
 * later still leads back here).
 */
function SignedIn({ children }: { children: ReactNode }) {
  const location = useLocation();
  const [signedIn, setSignedIn] = useState<boolean | null>(null);
  useEffect(() => {
    let current = true;
    void authProvider.check().then((result) => current && setSignedIn(result.authenticated));
    return () => {
      current = false;
    };
  }, []);
  if (signedIn === null) return <Loading />;
  if (!signedIn) {
    const to = location.pathname === "/" ? "" : `?to=${encodeURIComponent(location.pathname + location.search)}`;
    return <Navigate to={`/login${to}`} replace />;
  }
  return <>{children}</>;
}

export function App() {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <BrowserRouter basename="/admin">
        <Routes>
          <Route path="login" element={<LoginPage />} />
          <Route
            path="*"
            element={
              <SignedIn>
                <Suspense fallback={<Loading />}>
                  <OperatorApp />
                </Suspense>
              </SignedIn>
            }
          />
        </Routes>
      </BrowserRouter>
    </MantineProvider>
  );
}
