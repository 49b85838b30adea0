// Change my password: the current one is required; every other session of mine ends, this one stays.
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { PASSWORD_HINT } from '@prison/shared/password-policy';
import { passwordChangeRequest } from '@prison/shared/profile';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { errorMessage } from '../../lib/api-client';
import { useAuth } from '../../lib/auth';
import { useToast } from '../../lib/toast';
import { useChangePassword } from './api';

const formSchema = passwordChangeRequest
  .extend({ confirm_password: z.string().min(1, 'confirm the new password') })
  .refine((v) => v.confirm_password === v.new_password, {
    path: ['confirm_password'],
    message: 'the two new passwords differ',
  });
type FormValues = z.infer<typeof formSchema>;

export function PasswordForm() {
  const change = useChangePassword();
  const { notify } = useToast();
  const { refresh } = useAuth();
  const form = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: { current_password: '', new_password: '', confirm_password: '' },
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit(({ current_password, new_password }) =>
    change.mutate(
      { current_password, new_password },
      {
        onSuccess: () => {
          form.reset();
          void refresh(); // a required change is now done
          notify('Password changed. Your other sessions were logged out.');
        },
      },
    ),
  );

  return (
    <form onSubmit={submit} className="flex max-w-md flex-col gap-3" noValidate aria-label="Change password">
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        error={errors.current_password?.message}
        {...form.register('current_password')}
      />
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        hint={PASSWORD_HINT}
        error={errors.new_password?.message}
        {...form.register('new_password')}
      />
      <TextField
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        error={errors.confirm_password?.message}
        {...form.register('confirm_password')}
      />
      {change.isError && (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(change.error, 'The password could not be changed.')}
        </p>
      )}
      <div>
        <Button type="submit" busy={change.isPending}>
          Change password
        </Button>
      </div>
    </form>
  );
}
