import { Button } from "@mantine/core";
import { useNotification } from "@refinedev/core";
import { useState } from "react";
import { downloadFunction } from "../api";

/** Saves what a list shows (its filters, every page) as a CSV file. */
export function ExportButton({ name, body, label = "Export CSV" }: { name: string; body: Record<string, unknown>; label?: string }) {
  const [busy, setBusy] = useState(false);
  const { open } = useNotification();
  return (
    <Button
      variant="light"
      loading={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await downloadFunction(name, body);
        } catch (error) {
          open?.({ type: "error", message: "The export failed", description: (error as { message?: string }).message ?? "" });
        } finally {
          setBusy(false);
        }
      }}
    >
      {label}
    </Button>
  );
}
