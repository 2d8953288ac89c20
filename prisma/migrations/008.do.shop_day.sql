-- Hand-written: the Los Angeles calendar day of an instant that a "timestamp(3)"
-- column holds in UTC. The one place the shop's day rule is written: the daily
-- totals (app/models/daily-sales.server.ts), the dashboard's 30 days and a
-- rebuild after a bulk import all use it (docs/decisions/035). Migration 004
-- wrote the same rule once more for its backfill; released files never change.
CREATE FUNCTION shop_day(instant timestamp) RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$ SELECT to_char((instant AT TIME ZONE 'UTC') AT TIME ZONE 'America/Los_Angeles', 'YYYY-MM-DD') $$;

-- Hand-written: the daily totals recomputed from the orders paid now, for a
-- database filled in bulk (the bench's generated orders, an import); the
-- tests check that it gives what the shop keeps as payments change.
CREATE FUNCTION rebuild_daily_sales() RETURNS void
    LANGUAGE sql
    AS $$
        DELETE FROM "DailySales";
        INSERT INTO "DailySales" ("day", "orders", "revenueCents")
        SELECT shop_day("createdAt"), count(*), sum("totalCents") FROM "Order" WHERE "paymentStatus" = 'paid' GROUP BY 1;
    $$;
