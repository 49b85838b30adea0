import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocation, useNavigate } from 'react-router';
import { loginRequest, type LoginRequest } from '@prison/shared';
import { TotpRequiredError, useAuth } from '../../lib/auth';
import { errorMessage } from '../../lib/api-client';
import { forgetSessionEnd, sessionEndMessage } from '../../lib/session-end';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';

export function LoginPage() {
  const { login } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [serverError, setServerError] = useState<string | null>(null);
  // Two-factor login: after a right password the server asks for the code, and the form shows its field.
  const [codePrompt, setCodePrompt] = useState<string | null>(null);
  // Why the last session ended (idle, expired, revoked...), shown once: a reload of /login no longer shows it.
  const [sessionEnded] = useState(sessionEndMessage);
  useEffect(forgetSessionEnd, []);
  const {
    register,
    handleSubmit,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<LoginRequest>({ resolver: zodResolver(loginRequest), defaultValues: { username: '', password: '', totp: '' } });

  const onSubmit = handleSubmit(async (values) => {
    setServerError(null);
    try {
      await login(values.username, values.password, codePrompt ? values.totp : undefined);
      const from = (location.state as { from?: string } | null)?.from;
      // An operator lands on the operations overview (the home page), or back where the guard sent him from (044).
      navigate(from && from !== '/login' ? from : '/', { replace: true });
    } catch (error) {
      if (error instanceof TotpRequiredError) {
        setCodePrompt(error.message);
        setTimeout(() => setFocus('totp'));
        return;
      }
      // The server's message text below the form (SPEC.md section 8).
      setServerError(errorMessage(error, 'Login failed. Please try again.'));
    }
  });

  return (
    <div className="flex flex-1 items-center justify-center px-4 py-12">
      <form onSubmit={onSubmit} noValidate className="w-full max-w-sm rounded-lg bg-white p-8 shadow" aria-labelledby="login-title">
        <h1 id="login-title" className="mb-6 text-2xl font-semibold">
          Login
        </h1>
        {sessionEnded && (
          <p role="status" data-testid="session-ended" className="mb-4 rounded bg-amber-50 p-3 text-sm text-amber-900">
            {sessionEnded}
          </p>
        )}
        <div className="flex flex-col gap-4">
          <TextField label="Username" autoComplete="username" required error={errors.username?.message} {...register('username')} />
          <TextField
            label="Password"
            type="password"
            autoComplete="current-password"
            required
            error={errors.password?.message}
            {...register('password')}
          />
          {codePrompt && (
            <TextField
              label="Authentication code"
              autoComplete="one-time-code"
              inputMode="numeric"
              hint={codePrompt}
              error={errors.totp?.message}
              {...register('totp')}
            />
          )}
        </div>
        <p role="alert" data-testid="login-error" className="mt-4 min-h-5 text-sm text-red-700">
          {serverError}
        </p>
        <Button type="submit" className="mt-2 w-full" busy={isSubmitting}>
          Login
        </Button>
      </form>
    </div>
  );
}
