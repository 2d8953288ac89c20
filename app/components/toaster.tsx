import { useRouteLoaderData } from "@remix-run/react";
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { CloseIcon } from "~/components/icons";
import type { Message } from "~/lib/messages";
import type { RootLoader } from "~/root";

/**
 * Toasts (requirements §8): destructive ones in red. A toast from the server (after a
 * plain form post) renders without JavaScript; with JavaScript, pages add
 * their own with `useToast()` and toasts close themselves after a while.
 */

type Toast = Message & { id: number };

const ToastContext = createContext<(message: Message) => void>(() => undefined);

export function useToast() {
  return useContext(ToastContext);
}

const TOAST_MS = 6000;
let nextId = 1;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const show = useCallback((message: Message) => {
    setToasts((current) => [...current.slice(-2), { ...message, id: nextId++ }]);
  }, []);
  const dismiss = useCallback((id: number) => setToasts((current) => current.filter((toast) => toast.id !== id)), []);
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <ToastList toasts={toasts} dismiss={dismiss} />
    </ToastContext.Provider>
  );
}

/** Shows the server's one-time toast once per page load. */
export function Toaster() {
  const root = useRouteLoaderData<RootLoader>("root");
  const show = useToast();
  const [hydrated, setHydrated] = useState(false);
  const serverToast = root?.toast ?? null;
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (hydrated && serverToast) show(serverToast);
  }, [hydrated, serverToast, show]);
  // Before hydration (or without JavaScript) the server's toast is plain markup,
  // a <details> left open: its summary closes it, and a closed one is not shown.
  if (hydrated || !serverToast) return null;
  return (
    <div className="toasts">
      <details open className="dismissible">
        <summary className="icon-button dismissible__close" aria-label="Dismiss">
          <CloseIcon />
        </summary>
        <ToastView toast={{ ...serverToast, id: 0 }} />
      </details>
    </div>
  );
}

function ToastList({ toasts, dismiss }: { toasts: Toast[]; dismiss: (id: number) => void }) {
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((toast) => (
        <ToastView key={toast.id} toast={toast} dismiss={dismiss} />
      ))}
    </div>
  );
}

function ToastView({ toast, dismiss }: { toast: Toast; dismiss?: (id: number) => void }) {
  useEffect(() => {
    if (!dismiss) return;
    const timer = window.setTimeout(() => dismiss(toast.id), TOAST_MS);
    return () => window.clearTimeout(timer);
  }, [dismiss, toast.id]);
  return (
    <div className={`toast ${toast.destructive ? "toast--destructive" : ""}`} role={toast.destructive ? "alert" : "status"}>
      <div>
        <p className="toast__title">{toast.title}</p>
        <p className="toast__description">{toast.description}</p>
      </div>
      {dismiss ? (
        <button type="button" className="icon-button toast__close" aria-label="Dismiss" onClick={() => dismiss(toast.id)}>
          <CloseIcon />
        </button>
      ) : null}
    </div>
  );
}
