import { Alert, Anchor, Card, Group, Image, Stack, Switch, Table, Text, Title } from "@mantine/core";
import { useList, useUpdate } from "@refinedev/core";
import { formatCents } from "@shop/money";
import { Link } from "react-router";
import type { Product } from "../../catalog";
import { Loading } from "../../components/loading";
import { OwnerOnly } from "../../components/owner-only";
import { dollarsToCents } from "../../money";

/** The catalogue: each product's picture, name, price and a stock switch, and a link to edit it. */
export default function ProductListPage() {
  return (
    <OwnerOnly resource="products">
      <ProductList />
    </OwnerOnly>
  );
}

function ProductList() {
  const { result, query } = useList<Product>({
    resource: "products",
    pagination: { mode: "off" },
    errorNotification: false,
  });

  return (
    <Stack gap="lg">
      <div>
        <Title order={2}>Products</Title>
        <Text c="dimmed" size="sm">
          A sold-out product stays on the shop with its Add to cart button disabled. Price changes apply to carts at once; placed orders keep their prices.
        </Text>
      </div>
      {query.isLoading ? <Loading /> : null}
      {query.isError ? (
        <Alert color="red" title="Failed to fetch products" role="alert">
          {query.error.message}
        </Alert>
      ) : null}
      {result.data.length > 0 ? (
        <Card withBorder radius="lg" p={0}>
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={88}>Picture</Table.Th>
                  <Table.Th>Product</Table.Th>
                  <Table.Th>Price</Table.Th>
                  <Table.Th>In stock</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {result.data.map((product) => (
                  <ProductRow key={product.id} product={product} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      ) : null}
    </Stack>
  );
}

function ProductRow({ product }: { product: Product }) {
  const notificationKey = `product-stock-${product.id}`;
  const { mutate, mutation } = useUpdate<Product & { message: string }>({
    resource: "products",
    id: product.id,
    dataProviderName: "catalog",
    successNotification: (response) => ({
      key: notificationKey,
      type: "success",
      description: "Stock updated",
      message: response?.data.message ?? "",
    }),
    errorNotification: (error) => ({
      key: notificationKey,
      type: "error",
      description: "Failed to update stock",
      message: error?.message ?? "",
    }),
  });
  return (
    <Table.Tr>
      <Table.Td>
        <Image src={product.image} alt="" w={72} h={54} radius="md" fit="cover" />
      </Table.Td>
      <Table.Td>
        <Anchor component={Link} to={`/products/${product.id}`} fw={700}>
          {product.name}
        </Anchor>
        <Text size="xs" c="dimmed">
          {product.flavor} · {product.category === "bars" ? "100g bar" : "Mini bites"}
        </Text>
      </Table.Td>
      <Table.Td fw={700}>{formatCents(dollarsToCents(product.price))}</Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Switch
            checked={product.inStock}
            disabled={mutation.isPending}
            onChange={(event) => mutate({ values: { inStock: event.currentTarget.checked } })}
            aria-label={`${product.name} in stock`}
            color="green"
          />
          <Text size="sm" c={product.inStock ? "green.8" : "red.8"} fw={700}>
            {product.inStock ? "In stock" : "Sold out"}
          </Text>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
