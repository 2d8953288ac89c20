import { Alert, Box, Button, Card, Checkbox, Fieldset, Grid, Group, NumberInput, Paper, Stack, Switch, Text, TextInput, Title } from "@mantine/core";
import type { UseFormReturnType } from "@mantine/form";
import {
  MAX_CLOSED_DATES,
  MAX_DELIVERY_SLOTS,
  scheduleSentence,
  SHOP_TIME_ZONE,
  SLOT_ID,
  TIME_OF_DAY,
  WEEK_FROM_MONDAY,
  WEEKDAY_NAMES,
  WEEKDAYS,
  weekdaysInWords,
  type DeliverySchedule,
  type Weekday,
} from "@shop/delivery-schedule";
import { useState, type KeyboardEvent, type ReactNode } from "react";
import type { SettingsFields } from "./settings";

/**
 * The Settings page's "Delivery days": the owner's delivery schedule
 * (app/lib/delivery-schedule.ts, decision 100) as the form holds it, as
 * save-settings takes it back, and the section that edits it. The server
 * checks it whole and answers each refusal by its path
 * ("delivery.slots.1.end"): the fields here are named by the same paths, so
 * its messages land beside them. A zone's own days live on the zone's fields
 * (renaming or removing a zone takes its days along); the body names them by
 * the zone's name ("delivery.zoneDays.premium").
 */

/** A window as the form holds it: `id` is the saved one, or null for a new window, whose id comes from its label. */
export type SlotFields = { key: number; id: string | null; label: string; start: string; end: string; capacity: number | string };
/** A NumberInput's value: a number, or the text typed ("" when empty). */
type Count = number | string;
export type DeliveryFields = {
  days: Weekday[];
  leadDays: Count;
  cutoff: string;
  windowDays: Count;
  capacityPerDay: Count;
  closedDates: string[];
  slots: SlotFields[];
};
/** A zone's own days, on the zone's fields: off, it follows the shop's days. */
export type ZoneDaysFields = { ownDays: boolean; days: Weekday[] };

export function deliveryFieldsOf(schedule: DeliverySchedule, nextKey: () => number): DeliveryFields {
  return {
    days: [...schedule.days],
    leadDays: schedule.leadDays,
    cutoff: schedule.cutoff,
    windowDays: schedule.windowDays,
    capacityPerDay: schedule.capacityPerDay ?? "",
    closedDates: [...schedule.closedDates].sort(),
    slots: schedule.slots.map((slot) => ({ key: nextKey(), id: slot.id, label: slot.label, start: slot.start, end: slot.end, capacity: slot.capacity ?? "" })),
  };
}

export function zoneDaysFieldsOf(schedule: DeliverySchedule, zoneName: string): ZoneDaysFields {
  const days = schedule.zoneDays[zoneName];
  return { ownDays: days !== undefined, days: days ? [...days] : [] };
}

/** A zone's name as the server keeps it, and as zoneDays names it. */
const zoneKey = (name: string) => name.trim().toLowerCase();

/** A count as the number to send: empty is `empty` (left out: the server says it is required; or null: no limit); other text goes as typed, for the server to name. */
function countOf<Empty>(value: Count, empty: Empty): number | string | Empty {
  if (typeof value === "number") return value;
  const trimmed = value.trim();
  if (trimmed === "") return empty;
  const number = Number(trimmed);
  return Number.isNaN(number) ? value : number;
}

/** "9am–12pm" → "9am-12pm": lower case, digits and single dashes, at most 30 characters. */
function slugOf(label: string) {
  const slug = label
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+/, "")
    .slice(0, 30)
    .replace(/-+$/, "");
  return slug || "window";
}

/** Each window's id: a saved window keeps its own (orders name it); a new one's comes from its label, made unique ("9am-12pm-2"). */
export function slotIds(slots: readonly SlotFields[]) {
  const taken = new Set(slots.flatMap((slot) => (slot.id === null ? [] : [slot.id])));
  return slots.map((slot) => {
    if (slot.id !== null) return slot.id;
    const base = slugOf(slot.label);
    let id = base;
    for (let number = 2; taken.has(id) || !SLOT_ID.test(id); number++) id = `${base.slice(0, 30 - String(number).length - 1)}-${number}`;
    taken.add(id);
    return id;
  });
}

/** The schedule as save-settings takes it: typed text that is not a number goes as typed, so the server names the field. */
export function deliveryBodyOf(fields: SettingsFields) {
  const { delivery } = fields;
  const ids = slotIds(delivery.slots);
  return {
    days: WEEKDAYS.filter((day) => delivery.days.includes(day)),
    leadDays: countOf(delivery.leadDays, undefined),
    cutoff: delivery.cutoff,
    windowDays: countOf(delivery.windowDays, undefined),
    capacityPerDay: countOf(delivery.capacityPerDay, null),
    closedDates: delivery.closedDates,
    slots: delivery.slots.map((slot, index) => ({
      id: ids[index],
      label: slot.label,
      start: slot.start,
      end: slot.end,
      capacity: countOf(slot.capacity, null),
    })),
    zoneDays: Object.fromEntries(
      fields.zones.filter((zone) => zone.ownDays).map((zone) => [zoneKey(zone.name), WEEKDAYS.filter((day) => zone.days.includes(day))]),
    ),
  };
}

/**
 * The server's messages by the form's paths: a zone's days ("delivery.zoneDays.premium")
 * beside that zone's days ("zones.2.days"), and a window's id (made from its label) beside its label.
 */
export function deliveryErrorPaths(errors: Record<string, unknown>, fields: SettingsFields): Record<string, unknown> {
  const moved: Record<string, unknown> = {};
  for (const [path, message] of Object.entries(errors)) {
    const zoneDays = /^delivery\.zoneDays\.([^.]*)/.exec(path);
    const slotId = /^delivery\.slots\.(\d+)\.id$/.exec(path);
    const zoneIndex = zoneDays ? fields.zones.findIndex((zone) => zoneKey(zone.name) === zoneDays[1]) : -1;
    const to = zoneIndex >= 0 ? `zones.${zoneIndex}.days` : slotId ? `delivery.slots.${slotId[1]}.label` : path;
    if (!(to in moved)) moved[to] = message;
  }
  return moved;
}

const closedDateWords = new Intl.DateTimeFormat("en-US", { weekday: "long", year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
const closedDateShort = new Intl.DateTimeFormat("en-US", { weekday: "short", year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
const dayOf = (date: string) => new Date(`${date}T12:00:00Z`);

/** A weekday checkbox per day, Monday first; the value is kept Sunday first, as the schedule names them. */
function WeekdayChecks({
  label,
  description,
  value,
  onChange,
  error,
}: {
  label: string;
  description?: string;
  value: Weekday[];
  onChange: (days: Weekday[]) => void;
  error?: ReactNode;
}) {
  return (
    <Checkbox.Group
      label={label}
      description={description}
      value={value}
      onChange={(chosen) => onChange(WEEKDAYS.filter((day) => chosen.includes(day)))}
      error={error}
    >
      <Group gap="md" mt={8}>
        {WEEK_FROM_MONDAY.map((day) => (
          // One width for every day, so that on a phone the days wrap into even columns.
          <Checkbox key={day} value={day} label={WEEKDAY_NAMES[day]} miw={112} />
        ))}
      </Group>
    </Checkbox.Group>
  );
}

export function DeliveryDaysSection({ form, readOnly, nextKey }: { form: UseFormReturnType<SettingsFields>; readOnly: boolean; nextKey: () => number }) {
  const fields = form.getValues();
  const { delivery } = fields;
  const [newDate, setNewDate] = useState("");
  const [newDateError, setNewDateError] = useState<string | null>(null);

  /** Messages of a list are by place: once an item is added or removed they would point at the wrong one. */
  const withoutErrors = (prefix: string) => form.setErrors(Object.fromEntries(Object.entries(form.errors).filter(([path]) => !path.startsWith(prefix))));

  const addClosedDate = () => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(newDate)) return setNewDateError("Choose a day first");
    if (delivery.closedDates.includes(newDate)) return setNewDateError("Already a closed date");
    withoutErrors("delivery.closedDates");
    form.setFieldValue("delivery.closedDates", [...delivery.closedDates, newDate].sort());
    setNewDate("");
    setNewDateError(null);
  };
  const removeClosedDate = (date: string) => {
    withoutErrors("delivery.closedDates");
    form.setFieldValue(
      "delivery.closedDates",
      delivery.closedDates.filter((closed) => closed !== date),
    );
  };
  // Enter in the day adds it instead of saving the settings.
  const onDateEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    addClosedDate();
  };

  const addSlot = () => {
    withoutErrors("delivery.slots");
    form.insertListItem("delivery.slots", { key: nextKey(), id: null, label: "", start: "", end: "", capacity: "" } satisfies SlotFields);
  };
  const removeSlot = (index: number) => {
    withoutErrors("delivery.slots");
    form.removeListItem("delivery.slots", index);
  };

  const leadDays = typeof delivery.leadDays === "number" ? delivery.leadDays : Number.NaN;
  const previewable = delivery.days.length > 0 && TIME_OF_DAY.test(delivery.cutoff) && Number.isInteger(leadDays) && leadDays >= 0 && leadDays <= 30;
  const ids = slotIds(delivery.slots);
  // Messages that belong to no one field: the lists' own ("At most 8 windows").
  const listErrors = ["delivery", "delivery.closedDates", "delivery.slots"].flatMap((path) => (form.errors[path] ? [form.errors[path]] : []));

  return (
    <Card withBorder radius="lg" component="section" aria-labelledby="settings-delivery">
      <Title order={3} size="h4" id="settings-delivery">
        Delivery days
      </Title>
      <Text c="dimmed" size="sm">
        {`The days and times below are Los Angeles time (${SHOP_TIME_ZONE}), whatever the customer's own time zone.`}
      </Text>
      <Paper bg="chocolate.0" radius="md" p="sm" mt="md" mb="lg" data-testid="delivery-preview">
        <Text size="xs" fw={700} tt="uppercase" c="chocolate.8" id="delivery-preview-title">
          The storefront will say
        </Text>
        <Text size="sm" aria-labelledby="delivery-preview-title">
          {previewable
            ? `“${scheduleSentence({ days: delivery.days, cutoff: delivery.cutoff, leadDays })}”`
            : "Choose at least one day, an order cutoff and the lead days to see it."}
        </Text>
      </Paper>

      <Stack gap="xl">
        <WeekdayChecks
          label="Delivery weekdays"
          description="The days the shop delivers. A zone follows them unless it has days of its own (below)."
          value={delivery.days}
          onChange={(days) => form.setFieldValue("delivery.days", days)}
          error={form.errors["delivery.days"]}
        />

        <Grid gutter="md">
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <NumberInput
              label="Lead days"
              description="Delivery days from the day an order counts as placed to its earliest day; 0 for the same day."
              {...form.getInputProps("delivery.leadDays")}
              allowDecimal={false}
              allowNegative={false}
              min={0}
              max={30}
              inputWrapperOrder={["label", "input", "description", "error"]}
              required={!readOnly}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <TextInput
              type="time"
              label="Order cutoff"
              description="An order placed after it counts as placed the next day."
              {...form.getInputProps("delivery.cutoff")}
              inputWrapperOrder={["label", "input", "description", "error"]}
              required={!readOnly}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <NumberInput
              label="Days ahead a customer may choose"
              description="How far from today the checkout offers days (1 to 90)."
              {...form.getInputProps("delivery.windowDays")}
              allowDecimal={false}
              allowNegative={false}
              min={1}
              max={90}
              inputWrapperOrder={["label", "input", "description", "error"]}
              required={!readOnly}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <NumberInput
              label="Orders a day"
              description="The most orders one day takes. Empty means no limit."
              placeholder="No limit"
              {...form.getInputProps("delivery.capacityPerDay")}
              allowDecimal={false}
              allowNegative={false}
              min={1}
              max={10_000}
              inputWrapperOrder={["label", "input", "description", "error"]}
            />
          </Grid.Col>
        </Grid>

        {listErrors.map((message, index) => (
          <Alert key={index} color="red" role="alert">
            {message}
          </Alert>
        ))}

        <Box component="section" aria-labelledby="settings-closed-dates">
          <Title order={4} size="h5" id="settings-closed-dates">
            Closed dates
          </Title>
          <Text c="dimmed" size="sm" mb="sm">
            Days without deliveries, such as holidays, whatever their weekday.
          </Text>
          {delivery.closedDates.length === 0 ? (
            <Text size="sm" mb="sm">
              No closed dates.
            </Text>
          ) : (
            <Group component="ul" gap="xs" mb="sm" className="plain-list" aria-labelledby="settings-closed-dates">
              {delivery.closedDates.map((date, index) => {
                const error = form.errors[`delivery.closedDates.${index}`];
                return (
                  <Paper component="li" key={date} withBorder radius="md" py={4} pl="sm" pr={4}>
                    <Group gap="xs" wrap="nowrap">
                      <Text size="sm" component="time" dateTime={date} className="nowrap">
                        {closedDateShort.format(dayOf(date))}
                      </Text>
                      {readOnly ? null : (
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          color="red"
                          onClick={() => removeClosedDate(date)}
                          // The visible word first, so the name contains it; the day tells the buttons apart.
                          aria-label={`Remove ${closedDateWords.format(dayOf(date))}`}
                        >
                          Remove
                        </Button>
                      )}
                    </Group>
                    {error ? (
                      <Text size="xs" c="red.9" role="alert">
                        {error}
                      </Text>
                    ) : null}
                  </Paper>
                );
              })}
            </Group>
          )}
          {readOnly ? null : (
            <Group align="flex-start" gap="sm">
              <TextInput
                type="date"
                label="Closed date to add"
                value={newDate}
                onChange={(event) => {
                  setNewDate(event.currentTarget.value);
                  setNewDateError(null);
                }}
                onKeyDown={onDateEnter}
                error={newDateError}
                w={{ base: "100%", xs: 220 }}
              />
              <Button variant="light" onClick={addClosedDate} mt={{ base: 0, xs: 25 }} disabled={delivery.closedDates.length >= MAX_CLOSED_DATES}>
                Add closed date
              </Button>
            </Group>
          )}
        </Box>

        <Box component="section" aria-labelledby="settings-windows">
          <Title order={4} size="h5" id="settings-windows">
            Delivery windows
          </Title>
          <Text c="dimmed" size="sm" mb="sm">
            Optional times of the day a customer chooses from. Without any, the customer chooses only the day. Room is the most orders a window takes; empty
            means no limit.
          </Text>
          <Stack gap="sm">
            {delivery.slots.map((slot, index) => {
              const input = (name: "label" | "start" | "end" | "capacity") => form.getInputProps(`delivery.slots.${index}.${name}`);
              const title = `Window ${index + 1}${slot.label.trim() ? `: ${slot.label.trim()}` : ""}`;
              return (
                <Fieldset key={slot.key} legend={title} radius="md" variant="filled" data-testid={`window-${index + 1}`}>
                  <Grid gutter="sm" align="flex-start">
                    <Grid.Col span={{ base: 12, md: 4 }}>
                      <TextInput label="Label" placeholder="9am–12pm" {...input("label")} maxLength={40} required={!readOnly} />
                      {slot.id === null && slot.label.trim() ? (
                        <Text size="xs" c="dimmed" mt={4}>
                          {`Kept with its orders as “${ids[index]}”.`}
                        </Text>
                      ) : null}
                    </Grid.Col>
                    <Grid.Col span={{ base: 6, md: 2 }}>
                      <TextInput type="time" label="Start" {...input("start")} required={!readOnly} />
                    </Grid.Col>
                    <Grid.Col span={{ base: 6, md: 2 }}>
                      <TextInput type="time" label="End" {...input("end")} required={!readOnly} />
                    </Grid.Col>
                    <Grid.Col span={{ base: 6, md: 2 }}>
                      <NumberInput label="Room" placeholder="No limit" {...input("capacity")} allowDecimal={false} allowNegative={false} min={1} max={10_000} />
                    </Grid.Col>
                    {readOnly ? null : (
                      <Grid.Col span={{ base: 6, md: 2 }}>
                        <Button
                          variant="subtle"
                          color="red"
                          fullWidth
                          mt={25}
                          onClick={() => removeSlot(index)}
                          // The visible word first, so the name contains it; the window's label tells the buttons apart.
                          aria-label={`Remove window ${slot.label.trim() || index + 1}`}
                        >
                          Remove
                        </Button>
                      </Grid.Col>
                    )}
                  </Grid>
                </Fieldset>
              );
            })}
            {delivery.slots.length === 0 ? <Text size="sm">No windows: customers choose a day.</Text> : null}
          </Stack>
          {readOnly ? null : (
            <Group mt="sm">
              <Button variant="light" onClick={addSlot} disabled={delivery.slots.length >= MAX_DELIVERY_SLOTS}>
                Add window
              </Button>
              {delivery.slots.length >= MAX_DELIVERY_SLOTS ? (
                <Text size="sm" c="dimmed">
                  At most {MAX_DELIVERY_SLOTS} windows.
                </Text>
              ) : null}
            </Group>
          )}
        </Box>

        <Box component="section" aria-labelledby="settings-zone-days">
          <Title order={4} size="h5" id="settings-zone-days">
            Days by zone
          </Title>
          <Text c="dimmed" size="sm" mb="sm">
            {`A zone is served on the shop's days (${weekdaysInWords(delivery.days)}) unless it has days of its own.`}
          </Text>
          <Stack gap="sm">
            {fields.zones.map((zone, index) => {
              const name = zone.name.trim();
              const which = name ? `the ${name} zone` : `zone ${index + 1}`;
              return (
                <Paper key={zone.key} withBorder radius="md" p="sm">
                  <Switch
                    label={`Own days for ${which}`}
                    description={zone.ownDays ? undefined : `Follows the shop's days.`}
                    {...form.getInputProps(`zones.${index}.ownDays`, { type: "checkbox" })}
                  />
                  {zone.ownDays ? (
                    <Box mt="sm" pl={{ base: 0, xs: 54 }}>
                      <WeekdayChecks
                        label={`Days for ${which}`}
                        description="Tick the days this zone is served."
                        value={zone.days}
                        onChange={(days) => form.setFieldValue(`zones.${index}.days`, days)}
                        error={form.errors[`zones.${index}.days`]}
                      />
                    </Box>
                  ) : null}
                </Paper>
              );
            })}
          </Stack>
        </Box>
      </Stack>
    </Card>
  );
}
