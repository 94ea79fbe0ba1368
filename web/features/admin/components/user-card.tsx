import { CalendarClock, Check, Crown, Mail, Phone, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import type { AdminUpdateUserInput } from '#contract/admin';
import type { User } from '#contract/auth';
import { emailConfirmationMsg } from '#contract/email-confirmation';
import { msg } from '#contract/messages';
import { planLabel, sellablePlanTypes } from '#contract/plans';
import { ConfirmDialog } from '#web/components/confirm-dialog';
import { Avatar } from '#web/components/ui/avatar';
import { Badge, type BadgeTone } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { Label } from '#web/components/ui/label';
import { NativeSelect } from '#web/components/ui/select';
import { Spinner } from '#web/components/ui/spinner';
import { Switch } from '#web/components/ui/switch';
import { toast } from '#web/components/ui/use-toast';
import { formatDate, formatDateTime } from '#web/lib/format';
import { cn } from '#web/lib/utils';
import { useDeleteUser } from '../api/delete-user';
import { useUpdateUser } from '../api/update-user';

const ACCOUNT_TYPE_LABELS: Record<User['accountType'], string> = {
  demo: 'Demo',
  pending: 'Pendente',
  active: 'Cliente',
  regular: 'Regular',
  admin: 'Administrador',
};

function statusBadge(user: User): { label: string; tone: BadgeTone } {
  if (user.accountType === 'pending') return { label: 'Pendente', tone: 'yellow' };
  return user.isActive ? { label: 'Ativo', tone: 'green' } : { label: 'Inativo', tone: 'red' };
}

export function UserCard({ user }: { user: User }) {
  const id = useId();
  const isAdmin = user.accountType === 'admin';
  const status = statusBadge(user);
  const update = useUpdateUser();
  const remove = useDeleteUser();
  const [confirmOpen, setConfirmOpen] = useState(false);

  const runUpdate = (input: AdminUpdateUserInput) =>
    update.mutate(
      { id: user.id, input },
      {
        onSuccess: (res) => toast({ title: res.message || msg.admin.updated, variant: 'success' }),
        onError: () =>
          toast({ title: msg.admin.updateErrorTitle, description: msg.admin.updateError, variant: 'destructive' }),
      },
    );

  const confirmRemove = () =>
    remove.mutate(user.id, {
      onSuccess: (res) => {
        setConfirmOpen(false);
        toast({ title: res?.message || msg.admin.deleted, variant: 'success' });
      },
      onError: () => {
        setConfirmOpen(false);
        toast({ title: msg.admin.deleteErrorTitle, description: msg.admin.deleteError, variant: 'destructive' });
      },
    });

  const planOptions: string[] = (sellablePlanTypes as readonly string[]).includes(user.planType)
    ? [...sellablePlanTypes]
    : [user.planType, ...sellablePlanTypes];

  return (
    <Card className="flex h-full flex-col" aria-labelledby={`${id}-name`} role="article">
      <div className="flex items-start gap-3 p-5 pb-4">
        <Avatar name={user.name} className={cn('text-white', isAdmin ? 'bg-violet-700' : 'bg-brand-deep')} />
        <div className="grid min-w-0 flex-1 gap-1">
          <h3 id={`${id}-name`} className="truncate font-semibold">
            {user.name}
          </h3>
          <p className="truncate text-sm text-muted-foreground">@{user.username}</p>
          <div className="mt-1 flex flex-wrap gap-1.5">
            <Badge tone={isAdmin ? 'purple' : user.accountType === 'demo' ? 'blue' : 'neutral'}>
              {ACCOUNT_TYPE_LABELS[user.accountType] ?? user.accountType}
            </Badge>
            {!isAdmin && user.accountType !== 'pending' ? <Badge tone={status.tone}>{status.label}</Badge> : null}
            {user.accountType === 'pending' ? (
              <Badge tone={user.emailConfirmedAt ? 'green' : 'neutral'}>
                {user.emailConfirmedAt ? emailConfirmationMsg.confirmed : emailConfirmationMsg.notConfirmed}
              </Badge>
            ) : null}
          </div>
        </div>
      </div>

      <dl className="grid gap-2 px-5 pb-4 text-sm">
        <div className="flex min-w-0 items-center gap-2">
          <dt>
            <Mail aria-hidden className="size-4 text-muted-foreground" />
            <span className="sr-only">E-mail</span>
          </dt>
          <dd className="min-w-0 truncate">{user.email}</dd>
        </div>
        <div className="flex min-w-0 items-center gap-2">
          <dt>
            <Phone aria-hidden className="size-4 text-muted-foreground" />
            <span className="sr-only">WhatsApp</span>
          </dt>
          <dd className="min-w-0 truncate tabular-nums">{user.whatsappNumber || '—'}</dd>
        </div>
        <div className="flex min-w-0 items-center gap-2">
          <dt>
            <CalendarClock aria-hidden className="size-4 text-muted-foreground" />
            <span className="sr-only">Criado em</span>
          </dt>
          <dd>Criado em {formatDate(user.createdAt)}</dd>
        </div>
        {user.demoExpiresAt ? (
          <div className="flex min-w-0 items-center gap-2">
            <dt className="text-muted-foreground">Demo expira em</dt>
            <dd className="tabular-nums">{formatDateTime(user.demoExpiresAt)}</dd>
          </div>
        ) : null}
        {!isAdmin ? (
          <div className="flex min-w-0 items-center gap-2">
            <dt className="text-muted-foreground">Plano atual</dt>
            <dd className="font-medium">{planLabel(user.planType)}</dd>
          </div>
        ) : null}
      </dl>

      <div className="mt-auto border-t p-5">
        {isAdmin ? (
          <div className="grid gap-1.5 text-sm">
            <p className="flex items-center gap-2 font-semibold text-violet-800">
              <Crown aria-hidden className="size-4" />
              Administrador
            </p>
            <p className="text-muted-foreground">Acesso total ao sistema</p>
            <p className="text-muted-foreground">Recursos ilimitados</p>
          </div>
        ) : (
          <div className="grid gap-4">
            {user.accountType === 'pending' ? (
              <Button
                className="w-full"
                disabled={update.isPending}
                onClick={() => runUpdate({ isActive: true, accountType: 'active' })}
              >
                {update.isPending ? <Spinner /> : <Check aria-hidden />}
                Aprovar conta
              </Button>
            ) : (
              <div className="flex items-center justify-between gap-3">
                <Label htmlFor={`${id}-active`}>Conta ativa</Label>
                <Switch
                  id={`${id}-active`}
                  checked={user.isActive}
                  disabled={update.isPending}
                  onCheckedChange={(checked) => runUpdate({ isActive: checked })}
                />
              </div>
            )}

            <div className="grid gap-2">
              <Label htmlFor={`${id}-plan`}>Plano</Label>
              <NativeSelect
                id={`${id}-plan`}
                value={user.planType}
                disabled={update.isPending}
                onChange={(event) => {
                  const planType = event.target.value as AdminUpdateUserInput['planType'];
                  if (planType && planType !== user.planType) runUpdate({ planType });
                }}
              >
                {planOptions.map((p) => (
                  <option key={p} value={p} disabled={!(sellablePlanTypes as readonly string[]).includes(p)}>
                    {planLabel(p)}
                  </option>
                ))}
              </NativeSelect>
            </div>

            <Button
              variant="outline"
              className="w-full text-red-700 hover:bg-red-50 hover:text-red-800"
              aria-label={`Remover ${user.name}`}
              onClick={() => setConfirmOpen(true)}
            >
              <Trash2 aria-hidden />
              Remover
            </Button>
            <ConfirmDialog
              open={confirmOpen}
              onCancel={() => setConfirmOpen(false)}
              title="Remover usuário"
              description={msg.admin.deleteConfirm}
              confirmLabel="Remover"
              pendingLabel="Removendo..."
              pending={remove.isPending}
              onConfirm={confirmRemove}
            >
              <p className="rounded-md bg-muted px-3 py-2 text-sm">
                <span className="font-medium">{user.name}</span> · {user.email}
              </p>
            </ConfirmDialog>
          </div>
        )}
      </div>
    </Card>
  );
}
