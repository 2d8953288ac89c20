import { FieldError } from "~/components/forms";
import { deliveryOption, type OfferedDate } from "~/lib/delivery-schedule";

/**
 * The delivery days on offer for the checked address, as radio buttons that
 * work without JavaScript (decision 100): the days with room, and the full
 * ones shown off so the customer sees why; a day with windows lists them
 * under it. Closed days and those the zone is not served on are left out.
 * `chosen` is the server's choice: the day asked for, or the earliest.
 */
export function DeliveryDayPicker({
  dates,
  chosen,
  error,
  onChoose,
}: {
  dates: OfferedDate[];
  chosen: string | null;
  error: string | undefined;
  onChoose: (option: string) => void;
}) {
  const shown = dates.filter((date) => date.available || date.reason === "full");
  if (!shown.some((date) => date.available)) {
    return (
      <p className="notice notice--warning" data-testid="no-delivery-day">
        Every delivery day we can offer in the next weeks is full or closed. Please contact us to arrange your delivery.
      </p>
    );
  }
  const describedBy = error ? "deliveryDay-error deliveryDay-help" : "deliveryDay-help";
  const first = shown.slice(0, DAYS_SHOWN);
  const later = shown.slice(DAYS_SHOWN);
  return (
    // Keyed by the days offered: a new answer of the server resets the choice to its own.
    <fieldset className="day-picker" aria-describedby={describedBy} key={`${chosen}|${shown.map((date) => date.date).join()}`}>
      <legend className="day-picker__legend">Delivery day</legend>
      <p id="deliveryDay-help" className="panel__hint">
        Choose the day you&apos;ll be home to put your order in the freezer (Los Angeles time).
      </p>
      <FieldError id="deliveryDay-error" error={error} />
      <div className="day-picker__days">{first.map(dayOptions)}</div>
      {later.length > 0 ? (
        // The rest of the window folded, open when the choice is among them: a phone lists a week, not three.
        <details className="day-picker__more" open={later.some((day) => chosen?.startsWith(day.date)) || undefined}>
          <summary>More days, to {later[later.length - 1]!.label}</summary>
          <div className="day-picker__days">{later.map(dayOptions)}</div>
        </details>
      ) : null}
    </fieldset>
  );

  function dayOptions(day: OfferedDate) {
    if (day.slots.length === 0) {
      return <DayOption key={day.date} value={day.date} label={day.label} available={day.available} chosen={chosen} onChoose={onChoose} />;
    }
    return (
      <fieldset key={day.date} className="day-picker__day">
        <legend>{day.label}</legend>
        {day.slots.map((slot) => (
          <DayOption
            key={slot.id}
            value={deliveryOption(day.date, slot.id)}
            label={slot.label}
            available={slot.available}
            chosen={chosen}
            onChoose={onChoose}
          />
        ))}
      </fieldset>
    );
  }
}

/** How many days show before the rest fold away. */
const DAYS_SHOWN = 6;

function DayOption({
  value,
  label,
  available,
  chosen,
  onChoose,
}: {
  value: string;
  label: string;
  available: boolean;
  chosen: string | null;
  onChoose: (option: string) => void;
}) {
  return (
    <label className={`day-picker__option${available ? "" : " day-picker__option--full"}`}>
      <input
        type="radio"
        name="deliveryDay"
        value={value}
        defaultChecked={value === chosen}
        disabled={!available}
        onChange={(event) => event.target.checked && onChoose(value)}
      />
      <span>{label}</span>
      {available ? null : <span className="day-picker__full">Full</span>}
    </label>
  );
}
