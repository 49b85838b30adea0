// The accounts: create one with its role and blocks, change them, disable (their sessions end at once, after a
// confirmation), enable, unlock. Shown only to a role that may manage accounts (decision 053).
import { useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { PASSWORD_HINT } from '@prison/shared/password-policy';
import { adminCreateRequest, type AdminAccount, type AdminCreateRequest } from '@prison/shared/profile';
import { ROLE_LABELS } from '@prison/shared/roles';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { TextField } from '../../components/ui/field';
import { Modal } from '../../components/ui/modal';
import { stickyEndCell } from '../../components/ui/table-classes';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { useAuth } from '../../lib/auth';
import { useToast } from '../../lib/toast';
import { AccountAccessFields, blocksProblem, blocksText, type AccountAccess } from './account-access-fields';
import { AccountStaffField } from './account-staff-field';
import { useAdminAction, useAdmins, useCreateAdmin, useUpdateAdmin, type AdminAction } from './api';

const CHOOSE_ROLE = 'role: choose the role of the account';

function CreateAdminDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const create = useCreateAdmin();
  const { notify } = useToast();
  const form = useForm<AdminCreateRequest>({
    resolver: zodResolver(adminCreateRequest),
    defaultValues: { username: '', name: '', password: '' },
  });
  const { errors } = form.formState;
  // No default role: whoever creates an account says what it may do.
  const [access, setAccess] = useState<AccountAccess>({ role: '', blocks: [] });
  const [roleError, setRoleError] = useState<string | undefined>();
  // A wing officer with no block ticked: said once the form was sent, until a block is ticked or the role changes.
  const [sent, setSent] = useState(false);
  const blocksError = sent ? blocksProblem(access) : undefined;
  const close = () => {
    form.reset();
    create.reset();
    setAccess({ role: '', blocks: [] });
    setRoleError(undefined);
    setSent(false);
    onClose();
  };
  const submit = form.handleSubmit((values) => {
    setSent(true);
    if (!access.role) return setRoleError(CHOOSE_ROLE);
    if (blocksProblem(access)) return;
    create.mutate(
      { ...values, role: access.role, blocks: access.blocks },
      {
        onSuccess: (admin) => {
          notify(
            admin.pending
              ? `Account ${admin.username} created: as a new administrator it takes effect when a second administrator approves it (Pending approvals).`
              : `Account ${admin.username} created: they choose their own password at their first login.`,
          );
          close();
        },
      },
    );
  });
  return (
    <Modal
      open={open}
      onOpenChange={(next) => !next && close()}
      title="Create account"
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" form="create-admin-form" busy={create.isPending}>
            Create account
          </Button>
        </>
      }
    >
      <form id="create-admin-form" onSubmit={submit} noValidate className="flex flex-col gap-3">
        <TextField
          label="Username"
          autoComplete="off"
          error={errors.username?.message}
          {...form.register('username')}
        />
        <TextField label="Display name" autoComplete="off" error={errors.name?.message} {...form.register('name')} />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          hint={PASSWORD_HINT}
          error={errors.password?.message}
          {...form.register('password')}
        />
        <AccountAccessFields
          value={access}
          onChange={(next) => {
            setAccess(next);
            if (next.role) setRoleError(undefined);
          }}
          roleError={roleError}
          blocksError={blocksError}
        />
        {create.isError && (
          <p role="alert" className="text-sm text-red-700">
            {errorMessage(create.error, 'The admin could not be created.')}
          </p>
        )}
      </form>
    </Modal>
  );
}

function EditAccessDialog({ admin, onClose }: { admin: AdminAccount | null; onClose(): void }) {
  const update = useUpdateAdmin();
  const { notify } = useToast();
  const [access, setAccess] = useState<AccountAccess>({ role: admin?.role ?? '', blocks: admin?.blocks ?? [] });
  const [staffId, setStaffId] = useState<number | null>(admin?.staff_id ?? null);
  const close = () => {
    update.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!admin || !access.role || blocksProblem(access)) return;
    update.mutate(
      { id: admin.id, role: access.role, blocks: access.blocks, ...(staffId !== admin.staff_id && { staff_id: staffId }) },
      {
        onSuccess: (saved) => {
          notify(
            saved.pending
              ? `${saved.username}: becoming an administrator waits for a second administrator's approval (Pending approvals).`
              : `${saved.username}: ${ROLE_LABELS[saved.role]}, ${blocksText(saved.blocks).toLowerCase()}.`,
          );
          close();
        },
      },
    );
  };
  return (
    <Modal
      open={admin !== null}
      onOpenChange={(next) => !next && close()}
      title={`Role and blocks of ${admin?.username ?? ''}`}
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" form="edit-access-form" busy={update.isPending}>
            Save
          </Button>
        </>
      }
    >
      <form id="edit-access-form" onSubmit={submit} noValidate className="flex flex-col gap-3">
        <AccountAccessFields
          value={access}
          onChange={setAccess}
          roleError={access.role ? undefined : CHOOSE_ROLE}
          blocksError={blocksProblem(access)}
        />
        <AccountStaffField value={staffId} onChange={setStaffId} />
        {update.isError && (
          <p role="alert" className="text-sm text-red-700">
            {errorMessage(update.error, 'The account could not be changed.')}
          </p>
        )}
      </form>
    </Modal>
  );
}

function statusText(admin: AdminAccount) {
  if (admin.pending_change_id !== null) return admin.disabled ? 'Waits for approval' : 'Raise waits for approval';
  if (admin.disabled) return 'Disabled';
  if (admin.locked_until)
    return `Locked until ${new Date(admin.locked_until).toLocaleTimeString('en-GB', { timeStyle: 'short' })}`;
  return 'Active';
}

export function AdminsSection() {
  const admins = useAdmins();
  const action = useAdminAction();
  const { adminId } = useAuth();
  const { notify } = useToast();
  const [creating, setCreating] = useState(false);
  const [disabling, setDisabling] = useState<AdminAccount | null>(null);
  const [editing, setEditing] = useState<AdminAccount | null>(null);

  const run = (admin: AdminAccount, kind: AdminAction, done?: () => void) =>
    action.mutate(
      { id: admin.id, action: kind },
      {
        onSuccess: () => {
          notify(`${admin.username}: ${kind === 'disable' ? 'disabled' : kind === 'enable' ? 'enabled' : 'unlocked'}.`);
          done?.();
        },
        onError: (error) => !done && notify(errorMessage(error, 'The action failed.'), 'error'),
      },
    );

  return (
    <>
      <div className="mb-3">
        <Button onClick={() => setCreating(true)}>Create account</Button>
      </div>
      {admins.isPending ? (
        <Loading text="Loading admins..." />
      ) : admins.isError ? (
        <ErrorText>{errorMessage(admins.error, 'Failed to fetch admins.')}</ErrorText>
      ) : admins.data.length === 0 ? (
        <EmptyState>No admins.</EmptyState>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 text-slate-600">
              <tr>
                <th className="py-2 pr-4 font-medium">Username</th>
                <th className="py-2 pr-4 font-medium">Name</th>
                <th className="py-2 pr-4 font-medium">Role</th>
                <th className="py-2 pr-4 font-medium">Blocks</th>
                <th className="py-2 pr-4 font-medium">Status</th>
                <th className="py-2 pr-4 font-medium">Sessions</th>
                <th className={`py-2 pl-2 font-medium ${stickyEndCell}`}>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {admins.data.map((admin) => (
                <tr
                  key={admin.id}
                  data-testid="admin-row"
                  data-username={admin.username}
                  className="border-b border-slate-100"
                >
                  <td className="py-2 pr-4 font-medium">{admin.username}</td>
                  <td className="py-2 pr-4">{admin.name}</td>
                  <td className="py-2 pr-4" data-field="role">
                    {ROLE_LABELS[admin.role]}
                  </td>
                  <td className="py-2 pr-4" data-field="blocks">
                    {blocksText(admin.blocks)}
                  </td>
                  <td className="py-2 pr-4">{statusText(admin)}</td>
                  <td className="py-2 pr-4">{admin.active_sessions}</td>
                  <td className={`py-2 pl-2 ${stickyEndCell}`}>
                    <div className="flex justify-end gap-2">
                      <Button
                        variant="secondary"
                        size="sm"
                        aria-label={`Change role and blocks of ${admin.username}`}
                        onClick={() => setEditing(admin)}
                      >
                        Role
                      </Button>
                      {admin.locked_until && (
                        <Button variant="secondary" size="sm" onClick={() => run(admin, 'unlock')}>
                          Unlock
                        </Button>
                      )}
                      {admin.disabled && admin.pending_change_id !== null ? null : admin.disabled ? (
                        <Button variant="secondary" size="sm" onClick={() => run(admin, 'enable')}>
                          Enable
                        </Button>
                      ) : (
                        admin.id !== adminId && (
                          <Button variant="danger" size="sm" onClick={() => setDisabling(admin)}>
                            Disable
                          </Button>
                        )
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <CreateAdminDialog open={creating} onClose={() => setCreating(false)} />
      {/* Keyed by account, so the dialog starts from that account's role and blocks. */}
      <EditAccessDialog key={editing?.id ?? 'none'} admin={editing} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={disabling !== null}
        title="Disable admin"
        message={`Disable ${disabling?.username ?? ''}? Their sessions end at once and they cannot log in until enabled again.`}
        confirmLabel="Disable"
        busy={action.isPending}
        error={action.isError && disabling ? errorMessage(action.error, 'The admin could not be disabled.') : null}
        onConfirm={() => disabling && run(disabling, 'disable', () => setDisabling(null))}
        onCancel={() => {
          action.reset();
          setDisabling(null);
        }}
      />
    </>
  );
}
