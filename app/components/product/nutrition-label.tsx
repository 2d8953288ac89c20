import { labelRows, nutrientInfo, statedPanel, type Nutrition } from "~/lib/product-facts";

/**
 * A nutrition facts panel: the founding products' (requirements §1: the
 * serving and a row per stated figure), or a product's own label, laid out
 * as the US Nutrition Facts label lists it, per serving and per 100 g
 * (decision 096). The landing page shows a bar's, each product page its own.
 */
export function NutritionLabel({
  nutrition,
  category,
  heading: Heading,
  note,
}: {
  nutrition: Nutrition;
  category: "bars" | "bites";
  heading: "h2" | "h3";
  note?: string;
}) {
  if (nutrition.per === "label") {
    const rows = labelRows(nutrition);
    const [calories, ...lines] = rows;
    return (
      <section className="nutrition-label nutrition-label--full" aria-labelledby="facts-title">
        <Heading id="facts-title" className="nutrition-label__title">
          Nutrition Facts
        </Heading>
        <p className="nutrition-label__serving">
          Serving size: 1 {category === "bars" ? "bar" : "carton"} ({nutrition.servingGrams}g)
        </p>
        <table className="nutrition-table">
          <caption className="visually-hidden">Nutrition per serving, its percent Daily Value, and per 100 g</caption>
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">Nutrient</span>
              </th>
              <th scope="col">Per serving</th>
              <th scope="col">
                <abbr title="Daily Value">% DV</abbr>*
              </th>
              <th scope="col">Per 100g</th>
            </tr>
          </thead>
          <tbody>
            {calories ? (
              <tr className="nutrition-table__calories">
                <th scope="row">{nutrientInfo.calories.name}</th>
                <td>{calories.serving}</td>
                <td />
                <td>{calories.per100g}</td>
              </tr>
            ) : null}
            {lines.map((row) => (
              <tr key={row.nutrient} className={`nutrition-table__row nutrition-table__row--indent-${row.indent}`}>
                <th scope="row">{row.name}</th>
                <td>{row.serving}</td>
                <td>{row.dailyValue ?? ""}</td>
                <td>{row.per100g}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="nutrition-label__note">
          * The % Daily Value tells you how much a nutrient in a serving contributes to a daily diet. 2,000 calories a day is used for general nutrition advice.
        </p>
        {note ? <p className="nutrition-label__note">{note}</p> : null}
      </section>
    );
  }
  const panel = statedPanel(nutrition);
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
