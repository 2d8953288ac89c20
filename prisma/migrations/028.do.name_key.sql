-- A name as the operator's search reads it (issue 38 item 5): lower case, from
-- its first letter on. The name indexes were keyed on lower(name), so an order
-- for "😀Emoji 🍦Lopez" was not found by "Lopez". app/lib/name-search.ts's
-- nameKey says the same in JavaScript. [:alpha:] is the database's ctype's
-- letters: every Unicode letter under C.UTF-8 and the other UTF-8 locales.
-- Migrations 029 and 030 build the indexes keyed on it, 031 and 032 drop
-- 019's, 033 takes the statistics the planner reads them by.
CREATE FUNCTION name_key(name text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN lower(regexp_replace(name, '^[^[:alpha:]]+', ''));
