import { Button } from "@mantine/core";
import { useNotification } from "@refinedev/core";
import { useState } from "react";
import type { FunctionBody } from "~/functions/registry.server";
import { downloadFunction, type FileFunctionName } from "../api";

/** Saves what a list shows (its filters, every page) as a CSV file. */
export function ExportButton<Name extends FileFunctionName>({ name, body, label = "Export CSV" }: { name: Name; body: FunctionBody<Name>; label?: string }) {
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
