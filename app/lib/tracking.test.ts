import { describe, expect, it } from "vitest";
import { CARRIERS, checkTracking, trackingUrl } from "~/lib/tracking";

describe("an operator's tracking input", () => {
  it("takes the number as printed: spaces out, upper case", () => {
    expect(checkTracking({ carrier: " UPS ", trackingNumber: " 1z 999 aa1 0123 4567 84 " })).toEqual({
      ok: true,
      carrier: "UPS",
      trackingNumber: "1Z999AA10123456784",
    });
  });

  it("treats empty strings and nulls as not given", () => {
    expect(checkTracking({ carrier: "", trackingNumber: "  " })).toEqual({ ok: true, carrier: null, trackingNumber: null });
    expect(checkTracking({ carrier: null, trackingNumber: null })).toEqual({ ok: true, carrier: null, trackingNumber: null });
    expect(checkTracking({ carrier: "Local courier" })).toEqual({ ok: true, carrier: "Local courier", trackingNumber: null });
  });

  it.each([
    [{ carrier: "usps", trackingNumber: "9400100000" }, "carrier"],
    [{ trackingNumber: "9400100000" }, "carrier"],
    [{ carrier: "USPS", trackingNumber: "94001" }, "trackingNumber"],
    [{ carrier: "USPS", trackingNumber: "9".repeat(41) }, "trackingNumber"],
    [{ carrier: "USPS", trackingNumber: "9400_1000" }, "trackingNumber"],
    [{ carrier: "USPS", trackingNumber: '9400"><script>' }, "trackingNumber"],
  ])("refuses %j (%s)", (input, field) => {
    expect(checkTracking(input)).toMatchObject({ ok: false, field });
  });
});

describe("the carrier's tracking link", () => {
  it("links each carrier's public tracking page, and none for a local courier or a missing number", () => {
    expect(trackingUrl("USPS", "9400100000")).toBe("https://tools.usps.com/go/TrackConfirmAction?tLabels=9400100000");
    expect(trackingUrl("UPS", "1Z999AA10123456784")).toBe("https://www.ups.com/track?tracknum=1Z999AA10123456784");
    expect(trackingUrl("FedEx", "771234567890")).toBe("https://www.fedex.com/fedextrack/?trknbr=771234567890");
    expect(trackingUrl("DHL", "1234567890")).toBe("https://www.dhl.com/us-en/home/tracking/tracking-express.html?submit=1&tracking-id=1234567890");
    expect(trackingUrl("Local courier", "LA-123456")).toBeNull();
    expect(trackingUrl("USPS", null)).toBeNull();
    expect(trackingUrl("Pony Express", "123456")).toBeNull();
    expect(CARRIERS.filter((carrier) => trackingUrl(carrier, "123456"))).toEqual(["USPS", "UPS", "FedEx", "DHL"]);
  });

  it("encodes what it puts in the URL", () => {
    expect(trackingUrl("UPS", "A&B=C")).toBe("https://www.ups.com/track?tracknum=A%26B%3DC");
  });
});
