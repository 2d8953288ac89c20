/**
 * Type-level tests, run by `tsc -p admin` (npm run typecheck): the admin's
 * client refuses what the shop's functions would refuse, before the browser
 * sees it. Each `@ts-expect-error` fails the typecheck if the line below it
 * ever compiles. Nothing here runs.
 */
import { callFunction, callFunctionWithFiles, downloadFunction } from "./api";
import { useFunction, useFunctionMutation } from "./functions";

export async function typeTests() {
  // @ts-expect-error a name the shop has no function for
  await callFunction("get-ordres");
  // @ts-expect-error a wrong body: get-order takes an orderId
  await callFunction("get-order", { id: "7f9c2b1e-4d3a-4b8e-9f10-2a6c5d4e3b21" });
  // @ts-expect-error a body a function requires, left out
  await callFunction("update-order-status");
  // @ts-expect-error a status the function does not take
  await callFunction("update-order-status", { orderId: "x", newStatus: "lost" });
  // @ts-expect-error a body for a function that takes none
  await callFunction("get-products", { page: 1 });
  // @ts-expect-error a CSV export is downloaded, not read as JSON
  await callFunction("export-subscribers", {});
  // @ts-expect-error a JSON function is not downloaded
  await downloadFunction("get-subscribers", {});
  // @ts-expect-error create-product takes a multipart form, not JSON
  await callFunction("create-product", {});
  // @ts-expect-error only create-product takes a form
  await callFunctionWithFiles("update-product", new FormData());

  // The answer is the function's own type: a field it does not answer is an error.
  const { order } = await callFunction("get-order", { orderId: "7f9c2b1e-4d3a-4b8e-9f10-2a6c5d4e3b21" });
  const status: string = order.status;
  // @ts-expect-error get-order answers no such field
  void order.customerEmail;
  // @ts-expect-error a Date on the server is its ISO string on the wire
  const placed: Date = order.created_at;
  return { status, placed };
}

export function HookTypeTests() {
  // @ts-expect-error a name the shop has no function for
  useFunction("get-setings");
  // @ts-expect-error a wrong body for the query
  useFunction("get-preparation", { body: { orderIds: "all" } });
  const { call } = useFunctionMutation("resend-email");
  // @ts-expect-error resend-email takes an id
  call({ emailId: "x" });
  return call;
}
