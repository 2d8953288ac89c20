import { describe, expect, it } from "vitest";
import { detectors } from "../../scripts/scan-logs.mjs";

/** The scan the suites run over their log lines (scripts/scan-logs.mjs) finds what it must, and passes the shop's ordinary lines. */
describe("the scan for customer data in log lines", () => {
  const kindsIn = (line: string) => detectors(["Rivera", "Jamie"]).flatMap((check) => (check.test(line) ? [check.kind] : []));

  it.each([
    ['{"msg":"Newsletter sign-up failed for jane.doe@example.com"}', "email address"],
    ['{"msg":"call (310) 555-0142"}', "phone number"],
    ['{"msg":"phone 310-555-0177"}', "phone number"],
    ['{"msg":"ship to 9876 Sepulveda Blvd"}', "street address"],
    ['{"msg":"geocoding 12 Geocoder Error Way"}', "street address"],
    ['{"msg":"order for Jamie"}', "a test customer's name"],
  ])("finds %s", (line, kind) => {
    expect(kindsIn(line)).toContain(kind);
  });

  it.each([
    '{"level":"info","time":"2026-11-25T22:56:50.776Z","instance":"vm:7131","requestId":"95254ce7-ebb7-41c2-93ca-81eae04ac87b","route":"/healthz","method":"GET","path":"/healthz","status":200,"ms":12.5,"bytes":834,"clientAddress":"127.0.0.1","msg":"request"}',
    '{"msg":"Email 4f1c2a9e-0d51-4a59-9f59-3c0f9d1b2e77 (order-fulfilment) sent to kitchen@chillpb.example"}',
    '{"msg":"Background job orphan-orders: 2 given up, 0 found paid, 0 left for the next run"}',
    '{"msg":"[email] signed in"}',
  ])("passes %s", (line) => {
    expect(kindsIn(line)).toEqual([]);
  });
});
