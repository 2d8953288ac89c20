import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nameKey, nameMatches, namePrefixPairs, type NamePrefixPair } from "~/lib/name-search";

const inPair = (pair: NamePrefixPair, firstName: string, lastName: string) =>
  firstName.toLowerCase().startsWith(pair.first) && lastName.toLowerCase().startsWith(pair.last);

// Few letters, so that words and names often start alike (and so that the tricky cases come up).
const word = fc.string({ unit: fc.constantFrom("a", "b", "m", "r"), minLength: 1, maxLength: 4 });
const name = fc.string({ unit: fc.constantFrom("a", "b", "m", "r", "A", "M"), minLength: 0, maxLength: 6 });

describe("nameKey", () => {
  it("reads a name from its first letter on, in lower case", () => {
    expect(nameKey("😀Emoji")).toBe("emoji");
    expect(nameKey("🍦Lopez")).toBe("lopez");
    expect(nameKey("👩‍🍳 (Ana)")).toBe("ana)");
    expect(nameKey("Élodie")).toBe("élodie");
    expect(nameKey("李小龍")).toBe("李小龍");
    expect(nameKey("O'Neil-Smith")).toBe("o'neil-smith");
    expect(nameKey("🍦")).toBe("");
  });
});

describe("namePrefixPairs", () => {
  it("names a pair for each way two words can fall on the two names", () => {
    expect(namePrefixPairs(["olivia", "martinez"])).toEqual([
      { first: "olivia", last: "martinez" },
      { first: "martinez", last: "olivia" },
    ]);
    expect(namePrefixPairs(["mar"])).toEqual([
      { first: "", last: "mar" },
      { first: "mar", last: "" },
    ]);
  });

  it("reads words that start alike as one name's start when the longer one holds both", () => {
    // "mar martinez": a name that starts with "martinez" starts with "mar" too; the narrower pairs are inside these.
    expect(namePrefixPairs(["mar", "martinez"])).toEqual([
      { first: "", last: "martinez" },
      { first: "martinez", last: "" },
    ]);
    expect(namePrefixPairs(["ana", "ana"])).toEqual([
      { first: "", last: "ana" },
      { first: "ana", last: "" },
    ]);
  });

  it("names no pair where no order can match (three words no two of which start alike)", () => {
    expect(namePrefixPairs(["maria", "de", "la"])).toEqual([]);
  });

  it("holds exactly the orders the words match, in pairs none of which is inside another", () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 4 }), fc.array(fc.tuple(name, name), { maxLength: 30 }), (words, names) => {
        const pairs = namePrefixPairs(words);
        for (const [firstName, lastName] of names) {
          expect(pairs.some((pair) => inPair(pair, firstName, lastName))).toBe(nameMatches(words, firstName, lastName));
        }
        for (const pair of pairs) {
          for (const other of pairs) {
            if (other !== pair) expect(pair.first.startsWith(other.first) && pair.last.startsWith(other.last)).toBe(false);
          }
        }
      }),
    );
  });

  it("misses no match: the pair of a matching order's own names' starts is one of them or inside one", () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 4 }), name, name, (words, firstName, lastName) => {
        fc.pre(nameMatches(words, firstName, lastName));
        expect(namePrefixPairs(words).some((pair) => inPair(pair, firstName, lastName))).toBe(true);
      }),
    );
  });
});
