import { Anchor, Badge, Button, Card, Group, Stack, Table, Text, Title } from "@mantine/core";
import { ListStates, TableCard } from "../../components/list-parts";
import { useList } from "@refinedev/core";
import { Link } from "react-router";
import { termsInWords } from "@shop/discount-code";
import type { DiscountCodeJson } from "@shop/owner-records";
import { ownerOnlyPage } from "../../components/owner-only";
import { orderDate } from "../../components/status";
import { useWide } from "../../components/wide";

/** Every code with its terms (in words), how often it has been used and how many unpaid orders hold it now. */
export default ownerOnlyPage("discount-codes", DiscountCodeList);

function DiscountCodeList() {
  const wide = useWide("md");
  const { result, query } = useList<DiscountCodeJson>({
    resource: "discount-codes",
    dataProviderName: "catalog",
    pagination: { mode: "off" },
    errorNotification: false,
  });

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="end">
        <div>
          <Title order={2}>Discount codes</Title>
          <Text c="dimmed" size="sm">
            Uses are paid orders (a refund keeps its use); reserved are orders waiting on their payment page, which give the use back if they are not paid.
          </Text>
        </div>
        <Button component={Link} to="/discount-codes/new">
          New code
        </Button>
      </Group>
      <ListStates query={query} what="discount codes" count={result.data.length} empty="No discount codes yet." />
      {result.data.length > 0 && !wide ? (
        <Stack gap="sm">
          {/* On a phone each code is a card; from a laptop up, a table row. */}
          {result.data.map((code) => (
            <Card key={code.code} withBorder radius="lg" padding="sm">
              <Group justify="space-between" wrap="nowrap">
                <CodeLink code={code} />
                <CodeStatus code={code} />
              </Group>
              <Text size="sm" mt={4}>
                <strong>{termsInWords(code)}</strong> · {code.description}
                {code.firstOrderOnly ? " · first order only" : ""}
              </Text>
              <Text size="sm" c="dimmed">
                Uses {code.uses} / {code.usageLimit ?? "no limit"} · reserved {code.reserved}
                {code.startsAt ? ` · starts ${orderDate(code.startsAt)}` : ""} · expires {code.expiresAt ? orderDate(code.expiresAt) : "never"}
              </Text>
            </Card>
          ))}
        </Stack>
      ) : null}
      {result.data.length > 0 && wide ? (
        <TableCard minWidth={860} highlightOnHover columns={["Code", "Terms", "Description", "Status", "Uses / limit", "Reserved", "Expires"]}>
          {result.data.map((code) => (
            <Table.Tr key={code.code}>
              <Table.Td>
                <CodeLink code={code} />
              </Table.Td>
              <Table.Td fw={700} miw={160}>
                {termsInWords(code)}
                {code.startsAt ? (
                  <Text size="xs" c="dimmed" fw={400}>
                    Starts {orderDate(code.startsAt)}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td miw={180}>
                {code.description}
                {code.firstOrderOnly ? (
                  <Text size="xs" c="dimmed">
                    First order only
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>
                <CodeStatus code={code} />
              </Table.Td>
              <Table.Td className="nowrap">
                {code.uses} / {code.usageLimit ?? "no limit"}
              </Table.Td>
              <Table.Td>{code.reserved}</Table.Td>
              <Table.Td miw={140}>{code.expiresAt ? orderDate(code.expiresAt) : "Never"}</Table.Td>
            </Table.Tr>
          ))}
        </TableCard>
      ) : null}
    </Stack>
  );
}

function CodeLink({ code }: { code: DiscountCodeJson }) {
  return (
    <Anchor component={Link} to={`/discount-codes/${encodeURIComponent(code.code)}`} ff="monospace" fw={700}>
      {code.code}
    </Anchor>
  );
}

function CodeStatus({ code }: { code: DiscountCodeJson }) {
  if (!code.active) return <Badge color="gray">Inactive</Badge>;
  if (code.expired) return <Badge color="red">Expired</Badge>;
  if (code.usageLimit !== null && code.uses + code.reserved >= code.usageLimit) return <Badge color="orange">Used up</Badge>;
  return <Badge color="green">Active</Badge>;
}
