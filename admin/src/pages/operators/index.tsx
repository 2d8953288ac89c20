import { Badge, Button, Card, Group, PasswordInput, Select, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { ListStates, TableCard } from "../../components/list-parts";
import { useCreate, useDelete, useGetIdentity, useList, useUpdate, type HttpError } from "@refinedev/core";
import type { OperatorRow } from "@shop/operator-accounts";
import { OPERATOR_ROLES, type OperatorRole } from "@shop/operators";
import { useAdminForm } from "../../forms";
import { FormRefusal } from "../../components/form-refusal";
import { ownerOnlyPage } from "../../components/owner-only";
import { orderDate } from "../../components/status";
import { answerToasts } from "../../toasts";
import { useWide } from "../../components/wide";

const roleLabels: Record<OperatorRole, string> = {
  owner: "Owner",
  staff: "Staff",
};
const roleOptions = OPERATOR_ROLES.map((value) => ({
  value,
  label: roleLabels[value],
}));

function AddOperator() {
  const { form, refused, refusal, clearRefusal } = useAdminForm<{ email: string; role: OperatorRole; password: string }>({
    email: "",
    role: "staff",
    password: "",
  });
  const { mutate: create, mutation } = useCreate<OperatorRow & { message: string }, HttpError>();

  const submit = (values: typeof form.values) => {
    clearRefusal();
    create(
      {
        resource: "operators",
        values,
        // The form shows a refusal itself, beside the fields it names.
        ...answerToasts("operator-add", {
          success: "Operator added",
          error: false,
        }),
      },
      {
        onSuccess: () => form.reset(),
        onError: refused,
      },
    );
  };

  return (
    <Card withBorder radius="lg" component="form" onSubmit={form.onSubmit(submit)} noValidate>
      <Title order={3} size="h4" mb="sm">
        Add an operator
      </Title>
      <Group align="start" wrap="wrap">
        <TextInput type="email" label="Email" autoComplete="off" required w={260} {...form.getInputProps("email")} />
        <Select
          label="Role"
          data={roleOptions}
          allowDeselect={false}
          w={140}
          {...form.getInputProps("role")}
          onChange={(value) => form.setFieldValue("role", (value as OperatorRole | null) ?? "staff")}
        />
        <PasswordInput
          label="Password"
          description="At least 12 characters besides spaces"
          autoComplete="new-password"
          required
          w={260}
          {...form.getInputProps("password")}
        />
        <Button type="submit" mt={25} loading={mutation.isPending}>
          Add
        </Button>
      </Group>
      <FormRefusal message={refusal} mt="sm" />
    </Card>
  );
}

/** An operator's role, changed in place; the server's answer comes back as a toast. */
function RoleSelect({ operator }: { operator: OperatorRow }) {
  const { mutate: update } = useUpdate<OperatorRow & { message: string }, HttpError>();
  return (
    <Select
      aria-label={`Role, ${operator.email}`}
      data={roleOptions}
      value={operator.role}
      allowDeselect={false}
      w={120}
      onChange={(value) =>
        value && value !== operator.role
          ? update({
              resource: "operators",
              id: operator.email,
              values: { role: value },
              ...answerToasts(`operator-${operator.email}`, {
                success: "Role changed",
                error: "Role not changed",
              }),
            })
          : undefined
      }
    />
  );
}

/** Removes another operator's account, after a confirm. */
function RemoveButton({ operator }: { operator: OperatorRow }) {
  const { mutate: remove } = useDelete<{ message: string }, HttpError>();
  return (
    <Button
      variant="subtle"
      color="red"
      size="xs"
      // The visible word first, so the name contains it (WCAG 2.5.3).
      aria-label={`Remove, ${operator.email}`}
      onClick={() => {
        if (window.confirm(`Remove ${operator.email}? They will be signed out and can no longer sign in.`)) {
          remove({
            resource: "operators",
            id: operator.email,
            ...answerToasts(`operator-${operator.email}`, {
              success: "Operator removed",
              error: "Operator not removed",
            }),
          });
        }
      }}
    >
      Remove
    </Button>
  );
}

const lastSignedIn = (operator: OperatorRow) => (operator.lastSeenAt ? orderDate(operator.lastSeenAt) : "Never");

function OperatorList() {
  const { result, query } = useList<OperatorRow, HttpError>({
    resource: "operators",
    pagination: { mode: "off" },
    errorNotification: false,
  });
  const { data: identity } = useGetIdentity<{ email: string }>();
  const wide = useWide("sm");
  const isSelf = (operator: OperatorRow) => operator.email === identity?.email;
  // Until the shop has said who is signed in, no row offers Remove: yours would flash one for a moment.
  const removable = (operator: OperatorRow) => identity !== undefined && !isSelf(operator);
  const youBadge = (
    <Badge variant="light" color="gray">
      you
    </Badge>
  );

  return (
    <Stack gap="lg">
      <div>
        <Title order={2}>Operators</Title>
        <Text c="dimmed" size="sm">
          Owners manage everything; staff see orders (masked) and move them along. A changed role or removed account signs that person out at once.
        </Text>
      </div>
      <AddOperator />
      {/* On a phone each operator is a card; from a tablet up, a table row. */}
      {wide ? null : (
        <Stack gap="sm" component="ul" aria-label="Operators" style={{ listStyle: "none", padding: 0, margin: 0 }}>
          {result.data.map((operator) => (
            <Card key={operator.id} withBorder radius="lg" padding="sm" component="li">
              <Text fw={700} style={{ overflowWrap: "anywhere" }}>
                {operator.email} {isSelf(operator) ? youBadge : null}
              </Text>
              <Text size="sm" c="dimmed">
                Last signed in: {lastSignedIn(operator)}
              </Text>
              <Group justify="space-between" mt="xs">
                <RoleSelect operator={operator} />
                {removable(operator) ? <RemoveButton operator={operator} /> : null}
              </Group>
            </Card>
          ))}
        </Stack>
      )}
      {wide ? (
        <TableCard minWidth={560} columns={["Email", "Role", "Last signed in", { label: "Actions", hidden: true }]}>
          {result.data.map((operator) => (
            <Table.Tr key={operator.id}>
              <Table.Td style={{ overflowWrap: "anywhere" }}>
                {operator.email} {isSelf(operator) ? youBadge : null}
              </Table.Td>
              <Table.Td>
                <RoleSelect operator={operator} />
              </Table.Td>
              <Table.Td>{lastSignedIn(operator)}</Table.Td>
              <Table.Td>{removable(operator) ? <RemoveButton operator={operator} /> : null}</Table.Td>
            </Table.Tr>
          ))}
        </TableCard>
      ) : null}
      <ListStates query={query} what="operators" count={result.data.length} />
    </Stack>
  );
}

export default ownerOnlyPage("operators", OperatorList);
