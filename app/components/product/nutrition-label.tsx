import { nutritionPanel, type Nutrition } from "~/lib/product-facts";

/**
 * A nutrition facts panel (requirements §1): the serving, a row per fact and a note
 * below, as the landing page shows a bar's and each product page its own.
 */
export function NutritionLabel({ nutrition, heading: Heading, note }: { nutrition: Nutrition; heading: "h2" | "h3"; note?: string }) {
  const panel = nutritionPanel(nutrition);
  return (
    <section className="nutrition-label" aria-labelledby="facts-title">
      <Heading id="facts-title" className="nutrition-label__title">
        Nutrition Facts
      </Heading>
      <p className="nutrition-label__serving">{panel.serving}</p>
      <dl>
        {panel.rows.map((row) => (
          <div key={row.label}>
            <dt>{row.label}</dt>
            <dd>{row.value}</dd>
          </div>
        ))}
      </dl>
      {note ? <p className="nutrition-label__note">{note}</p> : null}
    </section>
  );
}
