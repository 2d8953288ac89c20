import { Anchor, Badge, Button, Card, Group, Image, Stack, Switch, Table, Text, Title } from "@mantine/core";
import { ListStates } from "../../components/list-parts";
import { useList, useUpdate } from "@refinedev/core";
import { dollarsToCents, formatCents } from "@shop/money";
import { Link } from "react-router";
import type { ProductJson } from "@shop/owner-records";
import { ownerOnlyPage } from "../../components/owner-only";
import { answerToasts } from "../../toasts";

/** The catalogue: each product's picture, name, price and a stock switch, and a link to edit it; archived ones marked; Add product. */
export default ownerOnlyPage("products", ProductList);

function ProductList() {
  const { result, query } = useList<ProductJson>({
    resource: "products",
    dataProviderName: "catalog",
    pagination: { mode: "off" },
    errorNotification: false,
  });

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div>
          <Title order={2}>Products</Title>
          <Text c="dimmed" size="sm">
            A sold-out product stays on the shop with its Add to cart button disabled; an archived one leaves the shop and stays on its orders. Price changes
            apply to carts at once; placed orders keep their prices.
          </Text>
        </div>
        <Button component={Link} to="/products/new" className="nowrap">
          Add product
        </Button>
      </Group>
      <ListStates query={query} what="products" count={result.data.length} />
      {query.isSuccess && result.data.length === 0 ? (
        <Card withBorder radius="lg">
          <Text>No products yet.</Text>
          <Anchor component={Link} to="/products/new">
            Add the first one
          </Anchor>
        </Card>
      ) : null}
      {result.data.length > 0 ? (
        <>
          {/* On a phone each product is a card; from a tablet up, a table row. */}
          <Stack gap="sm" hiddenFrom="sm">
            {result.data.map((product) => (
              <Card key={product.id} withBorder radius="lg" padding="sm">
                <Group wrap="nowrap" align="center">
                  <Image src={product.image} alt="" w={64} h={48} radius="md" fit="cover" />
                  <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                    <ProductName product={product} />
                    <Text fw={700}>{formatCents(dollarsToCents(product.price))}</Text>
                  </Stack>
                  <StockSwitch product={product} />
                </Group>
              </Card>
            ))}
          </Stack>
          <Card withBorder radius="lg" p={0} visibleFrom="sm">
            <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={104}>Picture</Table.Th>
                  <Table.Th>Product</Table.Th>
                  <Table.Th>Price</Table.Th>
                  {/* As wide as the switch and its label, centred over them. */}
                  <Table.Th w={120} ta="center">
                    In stock
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {result.data.map((product) => (
                  <Table.Tr key={product.id}>
                    <Table.Td>
                      <Image src={product.image} alt="" w={72} h={54} radius="md" fit="cover" />
                    </Table.Td>
                    <Table.Td>
                      <ProductName product={product} />
                    </Table.Td>
                    <Table.Td fw={700}>{formatCents(dollarsToCents(product.price))}</Table.Td>
                    <Table.Td>
                      <StockSwitch product={product} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Card>
        </>
      ) : null}
    </Stack>
  );
}

function ProductName({ product }: { product: ProductJson }) {
  return (
    <div>
      <Group gap={6} wrap="wrap">
        <Anchor component={Link} to={`/products/${product.id}`} fw={700}>
          {product.name}
        </Anchor>
        {product.archivedAt ? (
          <Badge color="gray" variant="light" size="sm">
            Archived
          </Badge>
        ) : null}
      </Group>
      <Text size="xs" c="dimmed">
        {product.flavor} · {product.category === "bars" ? "100g bar" : "Mini bites"}
      </Text>
    </div>
  );
}

/** The product's stock switch: the server's answer comes back as a toast, and the list is refetched. */
function StockSwitch({ product }: { product: ProductJson }) {
  const { mutate, mutation } = useUpdate<ProductJson & { message: string }>({
    resource: "products",
    id: product.id,
    dataProviderName: "catalog",
    ...answerToasts(`product-stock-${product.id}`, { success: "Stock updated", error: "Failed to update stock" }),
  });
  if (product.archivedAt) {
    return (
      <Text size="xs" c="dimmed" fw={700} ta="center" className="nowrap">
        Not on the shop
      </Text>
    );
  }
  return (
    <Stack gap={2} align="center">
      <Switch
        checked={product.inStock}
        disabled={mutation.isPending}
        onChange={(event) => mutate({ values: { inStock: event.currentTarget.checked } })}
        aria-label={`${product.name} in stock`}
        color="green"
      />
      <Text size="xs" c={product.inStock && product.stock !== 0 ? "green.8" : "red.8"} fw={700} className="nowrap">
        {!product.inStock || product.stock === 0 ? "Sold out" : product.stock === null ? "In stock" : `${product.stock} left`}
      </Text>
    </Stack>
  );
}
