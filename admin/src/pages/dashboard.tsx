import "@mantine/charts/styles.css";
import { BarChart } from "@mantine/charts";
import { Card, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { formatCents } from "@shop/money";
import { Loading, QueryError } from "../components/loading";
import { useFunction } from "../functions";

/** Today's orders and revenue, open orders, and paid orders per day for the last 30 days. */
export default function DashboardPage() {
  // No toast on failure: the page shows the error in place of the numbers.
  const { result, query } = useFunction("get-dashboard", { errorNotification: false });
  if (query.isLoading) return <Loading label="Loading the dashboard" />;
  if (query.isError || !result.data) {
    return <QueryError title="Failed to fetch the dashboard" message={query.error?.message} onRetry={() => void query.refetch()} />;
  }
  const stats = result.data;
  const days = stats.last30Days.map((day) => ({ ...day, day: day.date.slice(5) }));
  return (
    <Stack gap="lg">
      <Title order={2}>Dashboard</Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Stat label="Orders today" value={String(stats.today.orders)} />
        <Stat label="Revenue today" value={formatCents(stats.today.revenueCents)} />
        <Stat label="Open orders (pending or preparing)" value={String(stats.openOrders)} />
      </SimpleGrid>
      <Card withBorder radius="lg">
        <Title order={3} size="h4">
          Paid orders per day, last 30 days
        </Title>
        <Text c="dimmed" size="sm" mb="md">
          {formatCents(stats.last30DaysRevenueCents)} in revenue over the period.
        </Text>
        <BarChart h={280} data={days} dataKey="day" series={[{ name: "orders", label: "Orders", color: "chocolate.6" }]} tickLine="y" />
      </Card>
    </Stack>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Card withBorder radius="lg">
      <Text c="dimmed" size="sm" fw={700}>
        {label}
      </Text>
      <Text fz={32} fw={700} ff="Fredoka, sans-serif">
        {value}
      </Text>
    </Card>
  );
}
