import { describe, expect, it } from "vitest";
import { redirectWithToast } from "~/utils/toast.server";

/**
 * The custom matchers must fail when they should, or every test that uses
 * them would pass whatever the routes answered.
 */

const welcome = { title: "Welcome!", description: "Use WELCOME10." };

describe("toHaveRedirect", () => {
  it("passes for a 3xx with a Location, and for that Location when given", () => {
    const response = new Response(null, { status: 303, headers: { Location: "/#newsletter" } });
    expect(response).toHaveRedirect();
    expect(response).toHaveRedirect("/#newsletter");
    expect(response).not.toHaveRedirect("/");
  });

  it("fails for another Location, a 2xx, or a 3xx without a Location", () => {
    expect(() => expect(new Response(null, { status: 302, headers: { Location: "/shop" } })).toHaveRedirect("/cart")).toThrow(
      /redirect to .*\/cart.*302 redirect to .*\/shop/,
    );
    expect(() => expect(new Response(null, { status: 200, headers: { Location: "/shop" } })).toHaveRedirect()).toThrow(/status .*200/);
    expect(() => expect(new Response(null, { status: 304 })).toHaveRedirect()).toThrow(/Location .*null/);
    expect(new Response("ok")).not.toHaveRedirect();
  });
});

describe("toSendToast", () => {
  it("reads the toast back from the signed flash cookie", async () => {
    const response = await redirectWithToast("/", welcome);
    await expect(response).toSendToast(welcome);
    await expect(response).toSendToast(expect.objectContaining({ title: "Welcome!" }));
    await expect(response).not.toSendToast({ ...welcome, title: "Goodbye" });
  });

  it("fails for a response with no toast cookie, or a cookie that was tampered with", async () => {
    await expect(expect(new Response(null, { status: 303 })).toSendToast(welcome)).rejects.toThrow(/sent none/);
    await expect(new Response(null)).not.toSendToast(welcome);

    const genuine = await redirectWithToast("/", welcome);
    const [pair = ""] = (genuine.headers.get("Set-Cookie") ?? "").split(";");
    const forged = new Response(null, { status: 302, headers: { "Set-Cookie": `${pair.slice(0, -3)}abc; Path=/` } });
    await expect(expect(forged).toSendToast(welcome)).rejects.toThrow(/sent none/);
  });
});
