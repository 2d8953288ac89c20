import { Alert, Anchor, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from "@mantine/core";
import { useIsAuthenticated, useLogin } from "@refinedev/core";
import { useState, type FormEvent } from "react";
import { Navigate } from "react-router";

/**
 * Sign-in. It stays mounted while Refine re-checks the session after a failed
 * attempt, so the error it shows is not lost; a signed-in visitor goes on to the orders.
 */
export function LoginPage() {
  const { mutate: login, isPending } = useLogin<{ email: string; password: string }>();
  const { data: auth } = useIsAuthenticated();
  const [error, setError] = useState<string | null>(null);
  if (auth?.authenticated) return <Navigate to="/" replace />;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setError(null);
    login(
      { email: String(form.get("email") ?? ""), password: String(form.get("password") ?? "") },
      { onSuccess: (result) => (result.success ? undefined : setError(result.error?.message ?? "Sign-in failed.")) },
    );
  }

  return (
    <Center mih="100vh" bg="#fff8ef" p="md">
      <Paper component="main" shadow="md" radius="lg" p="xl" w={400} maw="100%">
        <form onSubmit={handleSubmit}>
          <Stack>
            <div>
              <Title order={1} size="h2">
                Order Management
              </Title>
              <Text c="dimmed" size="sm">
                Sign in to manage Chill PB orders.
              </Text>
            </div>
            {error ? (
              <Alert color="red" title="Sign-in failed" role="alert">
                {error}
              </Alert>
            ) : null}
            <TextInput label="Email" name="email" type="email" autoComplete="username" required />
            <PasswordInput label="Password" name="password" autoComplete="current-password" required />
            <Button type="submit" loading={isPending} fullWidth>
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
