import { advisoryText, allergenStatement, factsFor } from "~/lib/product-facts";

/**
 * The short allergy line of a product card or cart line: "Contains: peanuts,
 * milk" and, where there is honey, the note for infants (`compact`: its short
 * form, for small cards). `as="span"` where the line sits inside other text.
 */
export function AllergenLine({
  productId,
  compact = false,
  as: Tag = "p",
}: {
  productId: string;
  compact?: boolean;
  as?: "p" | "span";
}) {
  const facts = factsFor(productId);
  if (!facts) return null;
  return (
    <Tag className={compact ? "allergen-line allergen-line--compact" : "allergen-line"} data-testid="allergen-line">
      <strong>{allergenStatement(facts)}.</strong>
      {facts.advisories.map((advisory) => (
        <span key={advisory}> {compact ? advisoryText[advisory].short : advisoryText[advisory].full}</span>
      ))}
    </Tag>
  );
}
