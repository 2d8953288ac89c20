import { Group, TextInput } from "@mantine/core";

/**
 * A product's stock and low-stock threshold as the owner types them (decision
 * 063): the same two fields, words and rules on the Add product page and on a
 * product's page. Values stay text until the server reads them.
 */
export function StockFields({
  stock,
  threshold,
  onStock,
  onThreshold,
  errors,
}: {
  stock: string;
  threshold: string;
  onStock: (value: string) => void;
  onThreshold: (value: string) => void;
  errors: { stock?: string; lowStockThreshold?: string };
}) {
  return (
    <Group align="flex-start" gap="md">
      <TextInput
        label="Stock (items left)"
        description="Empty: no limit"
        value={stock}
        onChange={(event) => onStock(event.currentTarget.value)}
        error={errors.stock}
        inputMode="numeric"
        w={180}
      />
      <TextInput
        label="Low-stock threshold"
        description="“Only N left” and an email at or below"
        value={threshold}
        onChange={(event) => onThreshold(event.currentTarget.value)}
        error={errors.lowStockThreshold}
        inputMode="numeric"
        w={220}
      />
    </Group>
  );
}
