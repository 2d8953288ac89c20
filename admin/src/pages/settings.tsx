import { Alert, Button, Card, Fieldset, Group, SimpleGrid, Stack, Table, Text, TextInput, Textarea, Title, type TextInputProps } from "@mantine/core";
import { useCan } from "@refinedev/core";
import { useRef, useState, type KeyboardEvent } from "react";
import { fieldErrorsNote } from "../api";
import { Loading, QueryError } from "../components/loading";
import { ownerOnlyPage } from "../components/owner-only";
import { answerToasts } from "../toasts";
import { useFunction, useFunctionMutation } from "../functions";
import { useAdminForm } from "../forms";
import {
  DeliveryDaysSection,
  deliveryBodyOf,
  deliveryErrorPaths,
  deliveryFieldsOf,
  zoneDaysFieldsOf,
  type DeliveryFields,
  type ZoneDaysFields,
} from "./settings-delivery";
import type { FunctionAnswer, FunctionBody } from "~/functions/registry.server";

/** The shop's terms as get-settings answers them, and one zone of them. */
type SettingsJson = FunctionAnswer<"get-settings">;
type ZoneJson = SettingsJson["zones"][number];

/** The most zones save-settings takes. */
const MAX_ZONES = 8;
/** The longest postal address save-settings takes. */
const POSTAL_ADDRESS_MAX = 300;

/** The shop's terms: shipping, minimum order, the kitchen, the delivery zones and days, the postal address in emails. Staff see them; only the owner changes them. */
export default ownerOnlyPage("settings", Settings);

function Settings() {
  const { result, query } = useFunction("get-settings", {
    errorNotification: false,
  });
  const { data: edit, isLoading: checking } = useCan({
    resource: "settings",
    action: "edit",
  });
  if (query.isLoading || checking) return <Loading label="Loading the settings" />;
  if (query.isError || !result.data) {
    return <QueryError title="Failed to fetch the settings" message={query.error?.message} onRetry={() => void query.refetch()} />;
  }
  return <SettingsForm settings={result.data} readOnly={!edit?.can} />;
}

/** A zone as the form holds it: the typed text, its own delivery days, and a key that stays with the zone when another is removed. */
type ZoneFields = {
  key: number;
  name: string;
  upToMiles: string;
  minimumOrder: string;
  shippingFee: string;
  freeShippingThreshold: string;
} & ZoneDaysFields;
/** The fields as the body's paths name them ("kitchen.lat", "zones.1.name", "delivery.cutoff"): the server's messages land beside them. */
export type SettingsFields = {
  shippingFee: string;
  freeShippingThreshold: string;
  minimumOrder: string;
  kitchen: { lat: string; lon: string; address: string };
  zones: ZoneFields[];
  delivery: DeliveryFields;
  postalAddress: string;
};
type Fields = SettingsFields;

/** Dollars the server sent, as the text of a field: 10 → "10.00" (no sum, only how it is written). */
const dollarsText = (dollars: number | null) => (dollars === null ? "" : dollars.toFixed(2));

function fieldsOf(settings: SettingsJson, nextKey: () => number): Fields {
  return {
    shippingFee: dollarsText(settings.shippingFee),
    freeShippingThreshold: dollarsText(settings.freeShippingThreshold),
    minimumOrder: dollarsText(settings.minimumOrder),
    kitchen: { lat: String(settings.kitchen.lat), lon: String(settings.kitchen.lon), address: settings.kitchen.address ?? "" },
    zones: settings.zones.map((zone) => ({
      key: nextKey(),
      name: zone.name,
      upToMiles: String(zone.upToMiles),
      minimumOrder: dollarsText(zone.minimumOrder),
      shippingFee: dollarsText(zone.shippingFee),
      freeShippingThreshold: dollarsText(zone.freeShippingThreshold),
      ...zoneDaysFieldsOf(settings.delivery, zone.name),
    })),
    delivery: deliveryFieldsOf(settings.delivery, nextKey),
    postalAddress: settings.postalAddress ?? "",
  };
}

/**
 * Typed text as the number to send. Empty is left out (the server says the
 * field is required); text that is not a number goes as it is, for the server
 * to refuse with its own message beside the field.
 */
function numberOf(text: string): number | string | undefined {
  const trimmed = text.trim().replace(/^\$/, "");
  if (trimmed === "") return undefined;
  const value = Number(trimmed);
  return Number.isNaN(value) ? text : value;
}

/** An optional figure: empty is null (the shop-wide one applies). */
const optionalNumberOf = (text: string) => numberOf(text) ?? null;

function SettingsForm({ settings, readOnly }: { settings: SettingsJson; readOnly: boolean }) {
  const keys = useRef(0);
  const nextKey = () => ++keys.current;
  const { form, refused } = useAdminForm(() => fieldsOf(settings, nextKey));
  const fields = form.getValues();
  const { call, mutation } = useFunctionMutation("save-settings");

  /** A zone's messages are by its place in the list: once one is added or removed they would point at the wrong zone. */
  const withoutZoneErrors = () => form.setErrors(Object.fromEntries(Object.entries(form.errors).filter(([path]) => !path.startsWith("zones"))));
  const addZone = () => {
    withoutZoneErrors();
    form.insertListItem("zones", {
      key: nextKey(),
      name: "",
      upToMiles: "",
      minimumOrder: "",
      shippingFee: "",
      freeShippingThreshold: "",
      ownDays: false,
      days: [],
    } satisfies ZoneFields);
  };
  const removeZone = (index: number) => {
    withoutZoneErrors();
    form.removeListItem("zones", index);
  };

  function submit(fields: Fields) {
    if (readOnly) return;
    const values = {
      shippingFee: numberOf(fields.shippingFee),
      freeShippingThreshold: numberOf(fields.freeShippingThreshold),
      minimumOrder: numberOf(fields.minimumOrder),
      kitchen: { lat: numberOf(fields.kitchen.lat), lon: numberOf(fields.kitchen.lon), address: fields.kitchen.address.trim() || null },
      zones: fields.zones.map(
        (zone) =>
          ({
            name: zone.name,
            upToMiles: numberOf(zone.upToMiles),
            minimumOrder: numberOf(zone.minimumOrder),
            shippingFee: optionalNumberOf(zone.shippingFee),
            freeShippingThreshold: optionalNumberOf(zone.freeShippingThreshold),
          }) as unknown as ZoneJson,
      ),
      delivery: deliveryBodyOf(fields),
      // Empty clears it (no campaign can be sent until it is set again).
      postalAddress: fields.postalAddress.trim(),
    };
    // A number typed as text that is not one goes as typed, so the server names the field it is in.
    call(
      values as FunctionBody<"save-settings">,
      {
        ...answerToasts("settings-save", { success: "Settings saved", error: "Could not save the settings" }, fieldErrorsNote),
      },
      {
        // The form shows what the server now holds (names as it keeps them: lower case, trimmed).
        onSuccess: ({ data }) => {
          form.clearErrors();
          form.setValues(fieldsOf(data, nextKey));
        },
        // Every typed value stays; each message shows beside its field (a zone's days beside that zone's in Delivery days).
        onError: (error) => refused({ ...error, ...(error.errors && { errors: deliveryErrorPaths(error.errors, fields) as typeof error.errors }) }),
      },
    );
  }

  const zonesError = form.errors.zones;

  return (
    <Stack gap="lg" maw={1040}>
      <div>
        <Title order={2}>Settings</Title>
        <Text c="dimmed" size="sm">
          {"The shop's terms. Carts are priced on them from the next visit; orders already placed keep the figures they were placed with."}
        </Text>
      </div>
      {readOnly ? (
        <Alert color="chocolate" title="Read only" role="note">
          {"Only the shop's owner can change these settings."}
        </Alert>
      ) : null}
      <form onSubmit={form.onSubmit(submit)} noValidate aria-label="Settings" className={readOnly ? "read-only-form" : undefined}>
        <Fieldset disabled={readOnly} variant="unstyled" style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          <Stack gap="lg">
            <Card withBorder radius="lg" component="section" aria-labelledby="settings-shop-wide">
              <Title order={3} size="h4" id="settings-shop-wide">
                Shipping and minimum order
              </Title>
              <Text c="dimmed" size="sm" mb="md">
                Shop-wide: a zone uses these unless it sets its own.
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <DollarInput
                  label="Shipping fee ($)"
                  description="Charged on orders below free shipping."
                  {...form.getInputProps("shippingFee")}
                  required={!readOnly}
                />
                <DollarInput
                  label="Free shipping from ($)"
                  description="Orders of this much or more ship free."
                  {...form.getInputProps("freeShippingThreshold")}
                  required={!readOnly}
                />
                <DollarInput
                  label="Minimum order ($)"
                  description="The least an order may come to."
                  {...form.getInputProps("minimumOrder")}
                  required={!readOnly}
                />
              </SimpleGrid>
            </Card>

            <Card withBorder radius="lg" component="section" aria-labelledby="settings-kitchen">
              <Title order={3} size="h4" id="settings-kitchen">
                Kitchen
              </Title>
              <Text c="dimmed" size="sm" mb="md">
                {"Where deliveries start: each zone's miles are measured from here. Find it by its street address, then save the settings."}
              </Text>
              {readOnly ? null : (
                <KitchenFinder
                  onFound={(found) => {
                    form.setFieldValue("kitchen", { lat: String(found.lat), lon: String(found.lon), address: found.address });
                  }}
                />
              )}
              <Text size="sm" mt="md" data-testid="kitchen-address">
                {fields.kitchen.address ? `Kitchen address: ${fields.kitchen.address}` : "No street address saved: the kitchen is set by its coordinates."}
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 2 }} maw={560} mt="xs">
                <TextInput
                  label="Kitchen latitude"
                  description="Set by the address found; edit it only if the map point is off"
                  {...form.getInputProps("kitchen.lat")}
                  inputMode="decimal"
                  required={!readOnly}
                />
                <TextInput label="Kitchen longitude" {...form.getInputProps("kitchen.lon")} inputMode="decimal" required={!readOnly} />
              </SimpleGrid>
            </Card>

            <Card withBorder radius="lg" component="section" aria-labelledby="settings-zones">
              <Title order={3} size="h4" id="settings-zones">
                Delivery zones
              </Title>
              <Text c="dimmed" size="sm" mb="md">
                Nearest first, each reaching further than the one before. Addresses beyond the last zone are not delivered to.
              </Text>
              {zonesError ? (
                <Alert color="red" role="alert" mb="md">
                  {zonesError}
                </Alert>
              ) : null}
              <Stack gap="md">
                {fields.zones.map((zone, index) => {
                  const input = (name: Exclude<keyof ZoneFields, "key">) => form.getInputProps(`zones.${index}.${name}`);
                  const title = `Zone ${index + 1}${zone.name.trim() ? `: ${zone.name.trim()}` : ""}`;
                  return (
                    <Fieldset key={zone.key} legend={title} radius="md" variant="filled">
                      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
                        <TextInput label="Zone name" description="Customers see it as the '… zone'." {...input("name")} maxLength={30} required={!readOnly} />
                        <TextInput
                          label="Up to (miles)"
                          description="From the kitchen, as the crow flies."
                          {...input("upToMiles")}
                          inputMode="decimal"
                          required={!readOnly}
                        />
                        <DollarInput
                          label="Minimum order ($)"
                          description="Orders to this zone: 0 for none of its own."
                          {...input("minimumOrder")}
                          required={!readOnly}
                        />
                        <DollarInput label="Shipping fee ($)" description="Optional. Empty: the shop-wide fee applies." {...input("shippingFee")} />
                        <DollarInput
                          label="Free shipping from ($)"
                          description="Optional. Empty: the shop-wide threshold applies."
                          {...input("freeShippingThreshold")}
                        />
                        {readOnly ? null : (
                          <Group align="end" justify="flex-end">
                            <Button
                              variant="subtle"
                              color="red"
                              onClick={() => removeZone(index)}
                              disabled={fields.zones.length <= 1}
                              // The visible words first, so the name contains them; the zone's name tells the buttons apart.
                              aria-label={`Remove zone ${zone.name.trim() || index + 1}`}
                            >
                              Remove zone
                            </Button>
                          </Group>
                        )}
                      </SimpleGrid>
                    </Fieldset>
                  );
                })}
              </Stack>
              {readOnly ? null : (
                <Group mt="md">
                  <Button variant="light" onClick={addZone} disabled={fields.zones.length >= MAX_ZONES}>
                    Add zone
                  </Button>
                  {fields.zones.length >= MAX_ZONES ? (
                    <Text size="sm" c="dimmed">
                      At most {MAX_ZONES} zones.
                    </Text>
                  ) : null}
                </Group>
              )}
            </Card>

            <DeliveryDaysSection form={form} readOnly={readOnly} nextKey={nextKey} />

            <Card withBorder radius="lg" component="section" aria-labelledby="settings-emails">
              <Title order={3} size="h4" id="settings-emails">
                Emails
              </Title>
              <Text c="dimmed" size="sm" mb="md">
                What every email the shop sends carries, orders&apos; and campaigns&apos; alike.
              </Text>
              <Textarea
                label="Postal address"
                description="Printed at the foot of every email. The law (CAN-SPAM) asks for it before you send a campaign."
                {...form.getInputProps("postalAddress")}
                autosize
                minRows={3}
                maxRows={6}
                maxLength={POSTAL_ADDRESS_MAX}
                maw={560}
              />
            </Card>

            {readOnly ? null : (
              <Group>
                <Button type="submit" loading={mutation.isPending}>
                  Save settings
                </Button>
              </Group>
            )}
          </Stack>
        </Fieldset>
      </form>
    </Stack>
  );
}

function DollarInput(props: TextInputProps) {
  return <TextInput {...props} inputMode="decimal" leftSection="$" />;
}

type KitchenFound = FunctionAnswer<"locate-kitchen">;
type StreetFields = { address: string; city: string; state: string; zipCode: string };

const sourceWords: Record<KitchenFound["source"], string> = {
  geocoder: "found by the map service",
  cache: "found by the map service",
  zip: "placed at its ZIP code's middle (the map service could not answer): check the point, or type it below",
};

/**
 * The kitchen's street address, found as customers' addresses are (decision
 * 097), with the delivery zones it would give. Nothing is saved until the
 * settings are: the coordinates found go into the fields below.
 */
function KitchenFinder({ onFound }: { onFound: (found: KitchenFound) => void }) {
  const { form, refused, refusal } = useAdminForm<StreetFields>({ address: "", city: "", state: "CA", zipCode: "" });
  const { call, mutation } = useFunctionMutation("locate-kitchen");
  const [found, setFound] = useState<KitchenFound | null>(null);
  const find = () =>
    call(
      form.getValues(),
      { successNotification: false, errorNotification: false },
      {
        onSuccess: ({ data }) => {
          form.clearErrors();
          setFound(data);
          onFound(data);
        },
        onError: (error) => {
          setFound(null);
          refused(error);
        },
      },
    );
  // Enter in a field finds the address instead of saving the settings.
  const onEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    find();
  };
  return (
    <Stack gap="sm" role="group" aria-labelledby="kitchen-finder-title">
      <Text fw={700} size="sm" id="kitchen-finder-title">
        Find the kitchen by its address
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 4 }}>
        <TextInput label="Street address" {...form.getInputProps("address")} onKeyDown={onEnter} style={{ gridColumn: "span 2" }} autoComplete="off" />
        <TextInput label="City" {...form.getInputProps("city")} onKeyDown={onEnter} />
        <SimpleGrid cols={2} spacing="xs">
          <TextInput label="State" {...form.getInputProps("state")} onKeyDown={onEnter} maxLength={2} />
          <TextInput label="ZIP code" {...form.getInputProps("zipCode")} onKeyDown={onEnter} inputMode="numeric" />
        </SimpleGrid>
      </SimpleGrid>
      <Group>
        <Button type="button" variant="light" onClick={find} loading={mutation.isPending}>
          Find the kitchen
        </Button>
      </Group>
      {refusal ? (
        <Alert color="red" role="alert">
          {refusal}
        </Alert>
      ) : null}
      {found ? (
        <Alert color="green" role="status" title={`Found: ${found.address}`} data-testid="kitchen-found">
          <Text size="sm">
            At {found.lat.toFixed(5)}, {found.lon.toFixed(5)}, {sourceWords[found.source]}. Save the settings to measure deliveries from here.
          </Text>
          <Table mt="xs" withRowBorders={false} verticalSpacing={2} aria-label="The delivery zones from there">
            <Table.Tbody>
              {found.zones.map((zone) => (
                <Table.Tr key={zone.name}>
                  <Table.Th scope="row" style={{ verticalAlign: "top", minWidth: "7rem" }}>
                    {zone.name} (up to {zone.upToMiles} mi)
                  </Table.Th>
                  <Table.Td>
                    {zone.places.length > 0 ? zone.places.map((place) => `${place.name} ${place.miles} mi`).join(", ") : "none of the places we know"}
                  </Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Th scope="row" style={{ verticalAlign: "top", minWidth: "7rem" }}>
                  Not delivered to
                </Table.Th>
                <Table.Td>{found.beyond.length > 0 ? found.beyond.map((place) => `${place.name} ${place.miles} mi`).join(", ") : "none"}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Alert>
      ) : null}
    </Stack>
  );
}
