import { Alert, Button, Card, Fieldset, Group, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { useCan, type HttpError } from "@refinedev/core";
import type { SettingsJson, ZoneJson } from "@shop/owner-records";
import { useRef, useState, type FormEvent } from "react";
import { fieldErrorsNote } from "../api";
import { Loading, QueryError } from "../components/loading";
import { OwnerOnly } from "../components/owner-only";
import { answerToasts } from "../toasts";
import { useFunction, useFunctionMutation } from "../functions";
import type { FunctionBody } from "~/functions/registry.server";

/** The most zones save-settings takes. */
const MAX_ZONES = 8;

/** The shop's terms: shipping, minimum order, the kitchen and the delivery zones. Staff see them; only the owner changes them. */
export default function SettingsPage() {
  return (
    <OwnerOnly resource="settings" action="list">
      <Settings />
    </OwnerOnly>
  );
}

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

/** A zone as the form holds it: the typed text, and a key that stays with the zone when another is removed. */
type ZoneFields = {
  key: number;
  name: string;
  upToMiles: string;
  minimumOrder: string;
  shippingFee: string;
  freeShippingThreshold: string;
};
type Fields = {
  shippingFee: string;
  freeShippingThreshold: string;
  minimumOrder: string;
  lat: string;
  lon: string;
  zones: ZoneFields[];
};

/** Dollars the server sent, as the text of a field: 10 → "10.00" (no sum, only how it is written). */
const dollarsText = (dollars: number | null) => (dollars === null ? "" : dollars.toFixed(2));

function fieldsOf(settings: SettingsJson, nextKey: () => number): Fields {
  return {
    shippingFee: dollarsText(settings.shippingFee),
    freeShippingThreshold: dollarsText(settings.freeShippingThreshold),
    minimumOrder: dollarsText(settings.minimumOrder),
    lat: String(settings.kitchen.lat),
    lon: String(settings.kitchen.lon),
    zones: settings.zones.map((zone) => ({
      key: nextKey(),
      name: zone.name,
      upToMiles: String(zone.upToMiles),
      minimumOrder: dollarsText(zone.minimumOrder),
      shippingFee: dollarsText(zone.shippingFee),
      freeShippingThreshold: dollarsText(zone.freeShippingThreshold),
    })),
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
  const [fields, setFields] = useState(() => fieldsOf(settings, nextKey));
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const { call, mutation } = useFunctionMutation("save-settings");

  const set = (name: Exclude<keyof Fields, "zones">) => (event: { currentTarget: { value: string } }) => {
    const { value } = event.currentTarget;
    setFields((current) => ({ ...current, [name]: value }));
  };
  const setZone = (key: number, name: Exclude<keyof ZoneFields, "key">) => (event: { currentTarget: { value: string } }) => {
    const { value } = event.currentTarget;
    setFields((current) => ({
      ...current,
      zones: current.zones.map((zone) => (zone.key === key ? { ...zone, [name]: value } : zone)),
    }));
  };
  /** A zone's messages are by its place in the list: once one is added or removed they would point at the wrong zone. */
  const withoutZoneErrors = () => setErrors((current) => Object.fromEntries(Object.entries(current).filter(([path]) => !path.startsWith("zones"))));
  const addZone = () => {
    withoutZoneErrors();
    setFields((current) => ({
      ...current,
      zones: [
        ...current.zones,
        {
          key: nextKey(),
          name: "",
          upToMiles: "",
          minimumOrder: "",
          shippingFee: "",
          freeShippingThreshold: "",
        },
      ],
    }));
  };
  const removeZone = (key: number) => {
    withoutZoneErrors();
    setFields((current) => ({
      ...current,
      zones: current.zones.filter((zone) => zone.key !== key),
    }));
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    if (readOnly) return;
    const values = {
      shippingFee: numberOf(fields.shippingFee),
      freeShippingThreshold: numberOf(fields.freeShippingThreshold),
      minimumOrder: numberOf(fields.minimumOrder),
      kitchen: { lat: numberOf(fields.lat), lon: numberOf(fields.lon) },
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
          setErrors({});
          setFields(fieldsOf(data, nextKey));
        },
        // Every typed value stays; each message shows beside its field.
        onError: (failure: HttpError) => setErrors((failure.errors ?? {}) as Record<string, string>),
      },
    );
  }

  const zonesError = errors.zones;

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
      <form onSubmit={submit} noValidate aria-label="Settings" className={readOnly ? "read-only-form" : undefined}>
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
                  value={fields.shippingFee}
                  onChange={set("shippingFee")}
                  error={errors.shippingFee}
                  required={!readOnly}
                />
                <DollarInput
                  label="Free shipping from ($)"
                  description="Orders of this much or more ship free."
                  value={fields.freeShippingThreshold}
                  onChange={set("freeShippingThreshold")}
                  error={errors.freeShippingThreshold}
                  required={!readOnly}
                />
                <DollarInput
                  label="Minimum order ($)"
                  description="The least an order may come to."
                  value={fields.minimumOrder}
                  onChange={set("minimumOrder")}
                  error={errors.minimumOrder}
                  required={!readOnly}
                />
              </SimpleGrid>
            </Card>

            <Card withBorder radius="lg" component="section" aria-labelledby="settings-kitchen">
              <Title order={3} size="h4" id="settings-kitchen">
                Kitchen
              </Title>
              <Text c="dimmed" size="sm" mb="md">
                {"Where deliveries start: each zone's miles are measured from here."}
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 2 }} maw={560}>
                <TextInput
                  label="Kitchen latitude"
                  value={fields.lat}
                  onChange={set("lat")}
                  error={errors["kitchen.lat"]}
                  inputMode="decimal"
                  required={!readOnly}
                />
                <TextInput
                  label="Kitchen longitude"
                  value={fields.lon}
                  onChange={set("lon")}
                  error={errors["kitchen.lon"]}
                  inputMode="decimal"
                  required={!readOnly}
                />
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
                  const error = (name: string) => errors[`zones.${index}.${name}`];
                  const title = `Zone ${index + 1}${zone.name.trim() ? `: ${zone.name.trim()}` : ""}`;
                  return (
                    <Fieldset key={zone.key} legend={title} radius="md" variant="filled">
                      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
                        <TextInput
                          label="Zone name"
                          description="Customers see it as the '… zone'."
                          value={zone.name}
                          onChange={setZone(zone.key, "name")}
                          error={error("name")}
                          maxLength={30}
                          required={!readOnly}
                        />
                        <TextInput
                          label="Up to (miles)"
                          description="From the kitchen, as the crow flies."
                          value={zone.upToMiles}
                          onChange={setZone(zone.key, "upToMiles")}
                          error={error("upToMiles")}
                          inputMode="decimal"
                          required={!readOnly}
                        />
                        <DollarInput
                          label="Minimum order ($)"
                          description="Orders to this zone: 0 for none of its own."
                          value={zone.minimumOrder}
                          onChange={setZone(zone.key, "minimumOrder")}
                          error={error("minimumOrder")}
                          required={!readOnly}
                        />
                        <DollarInput
                          label="Shipping fee ($)"
                          description="Optional. Empty: the shop-wide fee applies."
                          value={zone.shippingFee}
                          onChange={setZone(zone.key, "shippingFee")}
                          error={error("shippingFee")}
                        />
                        <DollarInput
                          label="Free shipping from ($)"
                          description="Optional. Empty: the shop-wide threshold applies."
                          value={zone.freeShippingThreshold}
                          onChange={setZone(zone.key, "freeShippingThreshold")}
                          error={error("freeShippingThreshold")}
                        />
                        {readOnly ? null : (
                          <Group align="end" justify="flex-end">
                            <Button
                              variant="subtle"
                              color="red"
                              onClick={() => removeZone(zone.key)}
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

function DollarInput(props: {
  label: string;
  description?: string;
  value: string;
  onChange: (event: { currentTarget: { value: string } }) => void;
  error?: string;
  required?: boolean;
}) {
  return <TextInput {...props} inputMode="decimal" leftSection="$" />;
}
