// The sign-in page's styles only (Mantine's global styles and the components
// it shows); the operator app brings the rest (operator-app.tsx). All of
// Mantine's rules sit in its "mantine" CSS layer, so admin.css, loaded first
// but outside any layer, still wins over the ones that arrive later.
import "@mantine/core/styles/baseline.layer.css";
import "@mantine/core/styles/default-css-variables.layer.css";
import "@mantine/core/styles/global.layer.css";
import "@mantine/core/styles/UnstyledButton.layer.css";
import "@mantine/core/styles/VisuallyHidden.layer.css";
import "@mantine/core/styles/Paper.layer.css";
import "@mantine/core/styles/CloseButton.layer.css";
import "@mantine/core/styles/Group.layer.css";
import "@mantine/core/styles/Loader.layer.css";
import "@mantine/core/styles/Input.layer.css";
import "@mantine/core/styles/Flex.layer.css";
import "@mantine/core/styles/ActionIcon.layer.css";
import "@mantine/core/styles/PasswordInput.layer.css";
import "@mantine/core/styles/Button.layer.css";
import "@mantine/core/styles/Alert.layer.css";
import "@mantine/core/styles/Anchor.layer.css";
import "@mantine/core/styles/Center.layer.css";
import "@mantine/core/styles/Stack.layer.css";
import "@mantine/core/styles/Text.layer.css";
import "@mantine/core/styles/Title.layer.css";
import "./admin.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
