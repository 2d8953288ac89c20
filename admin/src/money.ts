/**
 * get-orders' item prices and get-dashboard's revenue arrive in dollars (the
 * functions' spec §3 shape); they become integer cents here, and only here,
 * so that the shop's one money format (`formatCents` in `@shop/money`) shows them.
 */
export const dollarsToCents = (dollars: number) => Math.round(dollars * 100);
