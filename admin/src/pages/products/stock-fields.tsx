import { Group, TextInput } from "@mantine/core";
import type { UseFormReturnType } from "@mantine/form";

/**
 * A product's stock and low-stock threshold as the owner types them (decision
 * 063): the same two fields, words and rules on the Add product page and on a
 * product's page. Values stay text until the server reads them.
 */
export function StockFields<Values extends StockValues>({ form }: { form: UseFormReturnType<Values> }) {
  return (
    <Group align="flex-start" gap="md">
      <TextInput label="Stock (items left)" description="Empty: no limit" {...form.getInputProps("stock")} inputMode="numeric" w={180} />
      <TextInput
        label="Low-stock threshold"
        description="“Only N left” and an email at or below"
        {...form.getInputProps("lowStockThreshold")}
        inputMode="numeric"
        w={220}
      />
    </Group>
  );
}

/** The two fields as a form holds them: text until the server reads it. */
export type StockValues = { stock: string; lowStockThreshold: string };

/** The two fields as a save sends them: empty stock is no limit; a count goes as a number, anything else as typed, for the server to refuse. */
export function stockBody({ stock, lowStockThreshold }: StockValues) {
  const count = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : text);
  return { stock: stock.trim() === "" ? null : count(stock), lowStockThreshold: count(lowStockThreshold) };
}
