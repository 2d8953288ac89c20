import type { APIRequestContext } from "@playwright/test";
import type { SettingsJson } from "../../app/models/settings.server";
import { expect, signInDemoOwner } from "./fixtures";

/**
 * The shop's terms through the owner's own functions, for the "settings"
 * specs: each reads them first and puts them back after each test.
 */

/** Signs `request` in as the demo owner and answers the terms as they are. */
export async function ownerSettings(request: APIRequestContext) {
  expect((await signInDemoOwner(request)).ok()).toBe(true);
  return (await (await request.post("/functions/v1/get-settings", { data: {} })).json()) as SettingsJson;
}

/** Saves the terms as the signed-in owner; fails the test with the server's answer when refused. */
export async function saveSettings(request: APIRequestContext, settings: SettingsJson) {
  const response = await request.post("/functions/v1/save-settings", { data: settings });
  expect(response.ok(), await response.text()).toBe(true);
}
