import { advisoryText, allergenStatement, type AllergyLabel } from "~/lib/product-facts";

/**
 * The short allergy line of a product card or cart line: "Contains: peanuts,
 * milk" and, where there is honey, the note for infants (`compact`: its short
 * form, for small cards). `as="span"` where the line sits inside other text.
 * `allergy` is the product's (the catalogue's `allergy`, decision 065); null
 * when the shop has no facts for it, and then the line says nothing.
 */
export function AllergenLine({ allergy, compact = false, as: Tag = "p" }: { allergy: AllergyLabel | null; compact?: boolean; as?: "p" | "span" }) {
  if (!allergy) return null;
  return (
    <Tag className={compact ? "allergen-line allergen-line--compact" : "allergen-line"} data-testid="allergen-line">
      <strong>{allergenStatement(allergy)}.</strong>
      {allergy.advisories.map((advisory) => (
        <span key={advisory}> {compact ? advisoryText[advisory].short : advisoryText[advisory].full}</span>
      ))}
    </Tag>
  );
}
