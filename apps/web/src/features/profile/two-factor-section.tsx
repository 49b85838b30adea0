// Two-factor login on /profile: set up with a QR code (or the secret typed in), confirm with a first code, see the
// ten recovery codes once; turn it off with a code. Turning it on asks for the password and ends the other sessions.
import { useState, type FormEvent } from 'react';
import type { TotpSetup } from '@prison/shared/profile';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { useAuth } from '../../lib/auth';
import { useConfirmTotp, useDisableTotp, useStartTotp, useTotpStatus } from './api';

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="flex flex-col gap-3" aria-label="Recovery codes" role="region">
      <p className="text-sm font-medium text-slate-900">
        Two-factor login is on. Save these recovery codes now: each one logs in once without the phone, and they are not
        shown again.
      </p>
      <ul className="grid max-w-md grid-cols-2 gap-2 font-mono text-sm">
        {codes.map((code) => (
          <li key={code} data-testid="recovery-code" className="rounded bg-slate-100 px-2 py-1">
            {code}
          </li>
        ))}
      </ul>
      <div>
        <Button onClick={onDone}>I have saved them</Button>
      </div>
    </div>
  );
}

function Enrolment({ setup, onConfirmed }: { setup: TotpSetup; onConfirmed: (codes: string[]) => void }) {
  const confirm = useConfirmTotp();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate(
      { code: code.trim(), current_password: password },
      { onSuccess: (result) => onConfirmed(result.recovery_codes) },
    );
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Set up two-factor login" className="flex max-w-md flex-col gap-3">
      <p className="text-sm text-slate-700">
        Scan this QR code with an authenticator app (for example FreeOTP, Aegis or Google Authenticator), or type the
        key below into it. Then enter the 6-digit code it shows and your password. Your other sessions will end.
      </p>
      <img
        src={setup.qr_code}
        alt="QR code for your authenticator app"
        width={240}
        height={240}
        className="self-start"
      />
      <p className="text-sm">
        Key:{' '}
        <code data-testid="totp-secret" className="break-all rounded bg-slate-100 px-1 font-mono">
          {setup.secret}
        </code>
      </p>
      <TextField
        label="Code from the app"
        autoComplete="one-time-code"
        inputMode="numeric"
        value={code}
        onChange={(event) => setCode(event.target.value)}
      />
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      {confirm.isError && (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(confirm.error, 'The code could not be checked.')}
        </p>
      )}
      <div>
        <Button type="submit" busy={confirm.isPending}>
          Turn on two-factor login
        </Button>
      </div>
    </form>
  );
}

function DisableForm() {
  const disable = useDisableTotp();
  const { refresh } = useAuth();
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    disable.mutate(code.trim(), {
      onSuccess: () => {
        setCode('');
        void refresh();
      },
    });
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Turn off two-factor login" className="flex max-w-md flex-col gap-3">
      <TextField
        label="Code or recovery code"
        autoComplete="one-time-code"
        value={code}
        onChange={(event) => setCode(event.target.value)}
      />
      {disable.isError && (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(disable.error, 'Two-factor login could not be turned off.')}
        </p>
      )}
      <div>
        <Button type="submit" variant="danger" busy={disable.isPending}>
          Turn off two-factor login
        </Button>
      </div>
    </form>
  );
}

export function TwoFactorSection() {
  const status = useTotpStatus();
  const start = useStartTotp();
  const { refresh } = useAuth();
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  if (recoveryCodes) return <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />;
  if (status.isPending) return <Loading />;
  if (status.isError)
    return <ErrorText>{errorMessage(status.error, 'Failed to fetch the two-factor status.')}</ErrorText>;

  if (status.data.enabled) {
    return (
      <div className="flex flex-col gap-3">
        <p className="text-sm" data-testid="totp-status">
          Two-factor login is on. {status.data.recovery_codes_left} recovery codes left.
        </p>
        <DisableForm />
      </div>
    );
  }
  if (start.data) {
    return (
      <Enrolment
        setup={start.data}
        onConfirmed={(codes) => {
          setRecoveryCodes(codes);
          start.reset();
          void refresh();
        }}
      />
    );
  }
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm" data-testid="totp-status">
        Two-factor login is off. With it on, logging in also asks for a code from an app on your phone.
      </p>
      {start.isError && <ErrorText>{errorMessage(start.error, 'The set-up could not start.')}</ErrorText>}
      <div>
        <Button onClick={() => start.mutate()} busy={start.isPending}>
          Set up two-factor login
        </Button>
      </div>
    </div>
  );
}
