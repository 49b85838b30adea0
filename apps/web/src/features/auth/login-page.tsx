// /login (docs/CLIENT-CONTRACT.md): username and password, the two-factor step when the account has one, and the single
// sign-on button when the server has an identity provider (decision 052).
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { loginRequest, type LoginRequest } from '@prison/shared/auth';
import { API_PREFIX } from '@prison/shared/constants';
import {
  OIDC_START_PATH,
  OIDC_STATUS_PATH,
  SSO_BUTTON_LABEL,
  ssoRefusalMessage,
  type OidcStatus,
} from '@prison/shared/oidc';
import { TotpRequiredError, useAuth } from '../../lib/auth';
import { api, errorMessage } from '../../lib/api-client';
import { forgetSessionEnd, sessionEndMessage } from '../../lib/session-end';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';

export function LoginPage() {
  const { login } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  // A refused single sign-on comes back as /login?sso=<why> (decision 052); only known reasons are shown.
  const [serverError, setServerError] = useState<string | null>(() => ssoRefusalMessage(searchParams.get('sso')));
  // The single sign-on button shows only where the server has a provider configured (OIDC_ISSUER).
  const singleSignOn = useQuery({
    queryKey: ['oidc-status'],
    queryFn: ({ signal }) => api.get<OidcStatus>(OIDC_STATUS_PATH, undefined, signal),
    staleTime: Infinity,
    retry: false,
  });
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
      // The server's message text below the form (docs/CLIENT-CONTRACT.md).
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
        {singleSignOn.data?.enabled && (
          <>
            <p className="my-4 text-center text-sm text-slate-500">or</p>
            {/* A navigation, not a fetch: the browser goes to the identity provider and comes back logged in. */}
            <a
              href={`${API_PREFIX}${OIDC_START_PATH}`}
              data-testid="sso-login"
              className="inline-flex w-full items-center justify-center rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100"
            >
              {SSO_BUTTON_LABEL}
            </a>
          </>
        )}
      </form>
    </div>
  );
}
