import { hasPermission, type OperatorRole } from "~/lib/operators";
import type { AnswerOf, AnyFunction, BodyOf } from "./define.server";
import { campaignFunctions } from "./campaigns.server";
import { catalogFunctions } from "./catalog.server";
import { customerFunctions } from "./customers.server";
import { discountCodeFunctions } from "./discount-codes.server";
import { operatorFunctions } from "./operators.server";
import { orderFunctions } from "./orders.server";
import { settingsFunctions } from "./settings.server";
import { storefrontFunctions } from "./storefront.server";

/**
 * Every /functions/v1 function, by name (decision 082). A function is added
 * here, in its group, and nowhere else: the route serves it, the admin's
 * client and access control know it, and the tests that go through every
 * function try it.
 */
export const functions = {
  ...storefrontFunctions,
  ...orderFunctions,
  ...catalogFunctions,
  ...discountCodeFunctions,
  ...customerFunctions,
  ...campaignFunctions,
  ...operatorFunctions,
  ...settingsFunctions,
} satisfies Record<string, AnyFunction>;

export type Functions = typeof functions;
export type FunctionName = keyof Functions;
export type FunctionBody<Name extends FunctionName> = BodyOf<Functions[Name]>;
export type FunctionAnswer<Name extends FunctionName> = AnswerOf<Functions[Name]>;

export const FUNCTION_NAMES = Object.keys(functions) as FunctionName[];

export function isFunctionName(name: string): name is FunctionName {
  return Object.hasOwn(functions, name);
}

/** The functions an operator in this role may call: what the admin shows them (/auth/me). */
export function functionsFor(role: OperatorRole): FunctionName[] {
  return FUNCTION_NAMES.filter((name) => {
    const { access }: AnyFunction = functions[name];
    return access === "public" || hasPermission(role, access);
  });
}
