import { Alert, Anchor, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from "@mantine/core";
import { useEffect, useState, type FormEvent } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { brand } from "@shop/brand";
import { loadOperatorApp } from "../operator-app-loader";
import { authProvider } from "../providers/auth";

/** Where to go after signing in: the page that sent the visitor here, if it is one of ours. */
function destination(to: string | null) {
  return to && to.startsWith("/") && !to.startsWith("//") ? to : "/";
}

/**
 * Sign-in. It talks to the auth provider directly rather than through
 * Refine's hooks, so that this page loads without Refine (decision 018); the
 * provider is the same one Refine uses once the operator is in. A visitor who
 * is already signed in goes on to the orders.
 */
export function LoginPage() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const to = destination(searchParams.get("to"));
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    let current = true;
    void authProvider.check().then((result) => {
      if (current && result.authenticated) void navigate(to, { replace: true });
    });
    return () => {
      current = false;
    };
  }, [navigate, to]);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setError(null);
    setPending(true);
    const result = await authProvider.login({ email: String(form.get("email") ?? ""), password: String(form.get("password") ?? "") });
    setPending(false);
    if (!result.success) return setError(result.error?.message ?? "Sign-in failed.");
    void navigate(to, { replace: true });
  }

  return (
    <Center mih="100vh" bg="#fff8ef" p="md">
      <Paper component="main" shadow="md" radius="lg" p="xl" w={400} maw="100%">
        {/* Someone who starts typing is about to sign in: fetch the operator's app meanwhile. */}
        <form onSubmit={handleSubmit} onFocus={() => void loadOperatorApp()}>
          <Stack>
            <div>
              <Title order={1} size="h2">
                Order Management
              </Title>
              <Text c="dimmed" size="sm">
                Sign in to manage {brand.name} orders.
              </Text>
            </div>
            {error ? (
              <Alert color="red" title="Sign-in failed" role="alert">
                {error}
              </Alert>
            ) : null}
            <TextInput label="Email" name="email" type="email" autoComplete="username" required />
            <PasswordInput label="Password" name="password" autoComplete="current-password" required />
            <Button type="submit" loading={pending} fullWidth>
              Sign in
            </Button>
            <Anchor href="/" size="sm" ta="center">
              Back to Homepage
            </Anchor>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
