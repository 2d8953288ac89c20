import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: ["node_modules/", "build/", "public/build/", "app/generated/", "admin/dist/", "var/", "test-results/", "playwright-report/"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    // Promises are awaited, returned or marked `void` on purpose, and never passed where a callback's result is ignored (decision 082).
    files: ["**/*.{ts,tsx}"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    // The admin calls the shop's functions through its typed client (admin/src/api.ts, admin/src/functions.ts), never by a bare URL,
    // and takes only types from the server's code, so none of it reaches the browser's bundle.
    files: ["admin/src/**/*.{ts,tsx}"],
    ignores: ["admin/src/functions.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@refinedev/core",
              importNames: ["useCustom", "useCustomMutation"],
              message: "Use useFunction / useFunctionMutation (admin/src/functions.ts): they type the name, the body and the answer.",
            },
          ],
          patterns: [{ group: ["~/*"], allowTypeImports: true, message: "The admin takes only types from the server's code." }],
        },
      ],
    },
  },
  {
    files: ["**/*.tsx"],
    plugins: { react, "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    settings: { react: { version: "detect" } },
    rules: {
      ...react.configs.recommended.rules,
      ...react.configs["jsx-runtime"].rules,
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.configs.recommended.rules,
      "react/prop-types": "off",
      "react/no-unknown-property": ["error", { ignore: ["fetchPriority"] }],
    },
  },
);
