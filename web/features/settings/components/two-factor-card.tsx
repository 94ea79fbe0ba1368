import { useQueryClient } from '@tanstack/react-query';
import { Copy, KeyRound, ShieldCheck, ShieldOff } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { msg } from '#contract/messages';
import {
  type TwoFactorSetupResponse,
  twoFactorDisableInput,
  twoFactorEnableInput,
  twoFactorMsg,
} from '#contract/two-factor';
import { copyText } from '#web/components/copy-field';
import { FormField } from '#web/components/form-field';
import { PendingButton } from '#web/components/pending-button';
import { QrCodeImage } from '#web/components/qr-code-image';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { useAuthenticatedUser } from '#web/lib/auth/get-me';
import { meQueryKey } from '#web/lib/query-keys';
import { toastError, toastSuccess } from '#web/lib/toasts';
import { formFieldProps, useServerForm } from '#web/lib/use-server-form';
import { useDisableTwoFactor, useEnableTwoFactor, useSetUpTwoFactor } from '../api/two-factor';
import { formatSecret, recoveryCodesText } from '../two-factor';

const codeInputProps = {
  autoComplete: 'one-time-code',
  autoCapitalize: 'characters',
  autoCorrect: 'off',
  spellCheck: false,
  placeholder: '123456',
} as const;

/** The QR code, the typed key and the first code that turns it on. */
function EnableForm({
  setup,
  onEnabled,
  onCancel,
}: {
  setup: TwoFactorSetupResponse;
  onEnabled: (recoveryCodes: string[]) => void;
  onCancel: () => void;
}) {
  const enable = useEnableTwoFactor();
  const form = useServerForm(twoFactorEnableInput, { defaultValues: { code: '' }, serverFields: ['code'] });
  const onSubmit = form.handleSubmit((values) =>
    enable.mutate(values, {
      onSuccess: (res) => {
        toastSuccess(res.message);
        onEnabled(res.recoveryCodes);
      },
      onError: (error) => form.failed(error, 'Não foi possível ativar a verificação em duas etapas.'),
    }),
  );
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <p className="text-sm">{twoFactorMsg.setupScan}</p>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <div className="shrink-0 self-center sm:self-start">
          <QrCodeImage value={setup.otpauthUrl} alt="QR code para o aplicativo autenticador" testId="two-factor-qr" />
        </div>
        <div className="grid min-w-0 flex-1 gap-4">
          <div className="grid min-w-0 gap-1.5">
            <p className="text-sm font-medium">{twoFactorMsg.secretLabel}</p>
            <code
              className="rounded-md border bg-muted px-2 py-1.5 font-mono text-sm break-all"
              data-testid="two-factor-secret"
            >
              {formatSecret(setup.secret)}
            </code>
          </div>
          <FormField
            id="two-factor-code"
            label={twoFactorMsg.codeLabel}
            inputMode="numeric"
            {...codeInputProps}
            {...formFieldProps(form, 'code')}
          />
          <div className="flex flex-wrap gap-2">
            <PendingButton type="submit" pending={enable.isPending} pendingLabel="Ativando...">
              <ShieldCheck aria-hidden />
              {twoFactorMsg.enable}
            </PendingButton>
            <Button type="button" variant="ghost" onClick={onCancel} disabled={enable.isPending}>
              Cancelar
            </Button>
          </div>
        </div>
      </div>
    </form>
  );
}

/** The ten recovery codes, shown once right after it is turned on. */
function RecoveryCodes({ codes, doneLabel, onDone }: { codes: string[]; doneLabel: string; onDone: () => void }) {
  return (
    <div className="grid gap-4" data-testid="recovery-codes-panel">
      <div className="grid gap-1">
        <h4 className="text-sm font-semibold">{twoFactorMsg.recoveryTitle}</h4>
        <p className="text-sm text-muted-foreground">{twoFactorMsg.recoveryHint}</p>
      </div>
      <ul
        className="grid grid-cols-2 gap-2 rounded-md border bg-muted p-3 font-mono text-sm sm:max-w-md"
        data-testid="recovery-codes"
        aria-label={twoFactorMsg.recoveryTitle}
      >
        {codes.map((code) => (
          <li key={code} className="tabular-nums">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="outline"
          onClick={() => void copyText(recoveryCodesText(codes, twoFactorMsg.recoveryTitle))}
        >
          <Copy aria-hidden />
          Copiar códigos
        </Button>
        <Button type="button" onClick={onDone}>
          {doneLabel}
        </Button>
      </div>
    </div>
  );
}

/** Turning it off: the password and a code (of the app, or a recovery code). */
function DisableForm({ onDone }: { onDone: () => void }) {
  const disable = useDisableTwoFactor();
  const form = useServerForm(twoFactorDisableInput, {
    defaultValues: { password: '', code: '' },
    serverFields: ['password', 'code'],
  });
  const onSubmit = form.handleSubmit((values) =>
    disable.mutate(values, {
      onSuccess: (res) => {
        toastSuccess(res.message);
        onDone();
      },
      onError: (error) => form.failed(error, 'Não foi possível desativar a verificação em duas etapas.'),
    }),
  );
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="grid max-w-md gap-4 rounded-md border p-4"
      aria-label={twoFactorMsg.disableTitle}
    >
      <div className="grid gap-1">
        <h4 className="text-sm font-semibold">{twoFactorMsg.disableTitle}</h4>
        <p className="text-sm text-muted-foreground">{twoFactorMsg.disableHint}</p>
      </div>
      <FormField
        id="two-factor-disable-password"
        label="Senha"
        type="password"
        autoComplete="current-password"
        {...formFieldProps(form, 'password')}
      />
      <FormField
        id="two-factor-disable-code"
        label={twoFactorMsg.codeLabel}
        {...codeInputProps}
        {...formFieldProps(form, 'code')}
      />
      <div className="flex flex-wrap gap-2">
        <PendingButton type="submit" variant="destructive" pending={disable.isPending} pendingLabel="Desativando...">
          <ShieldOff aria-hidden />
          {twoFactorMsg.disable}
        </PendingButton>
        <Button type="button" variant="ghost" onClick={onDone} disabled={disable.isPending}>
          Cancelar
        </Button>
      </div>
    </form>
  );
}

/**
 * 'Verificação em duas etapas' of the signed-in login: turn it on (QR code, key, a first code, then
 * the recovery codes, once) or off (password and a code). `heldToSetup`: the login's account requires
 * it and the app shows nothing else; the signed-in user is refreshed (and the app opens) only once the
 * recovery codes were seen, as the refresh leaves this page.
 */
export function TwoFactorCard({
  readOnly = false,
  heldToSetup = false,
}: {
  readOnly?: boolean;
  heldToSetup?: boolean;
}) {
  const user = useAuthenticatedUser();
  const queryClient = useQueryClient();
  const enabled = user.twoFactorEnabled === true;
  const setUp = useSetUpTwoFactor();
  const [setup, setSetup] = useState<TwoFactorSetupResponse | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [disabling, setDisabling] = useState(false);
  const refreshMe = () => queryClient.invalidateQueries({ queryKey: meQueryKey });

  const start = () =>
    setUp.mutate(undefined, {
      onSuccess: setSetup,
      onError: (error) => toastError(error, 'Não foi possível começar a configuração.'),
    });

  let body: ReactNode;
  if (recoveryCodes) {
    body = (
      <RecoveryCodes
        codes={recoveryCodes}
        doneLabel={heldToSetup ? 'Guardei os códigos, continuar' : 'Guardei os códigos'}
        onDone={() => {
          setRecoveryCodes(null);
          if (heldToSetup) void refreshMe();
        }}
      />
    );
  } else if (enabled) {
    body = disabling ? (
      <DisableForm onDone={() => setDisabling(false)} />
    ) : (
      <div>
        <Button type="button" variant="outline" disabled={readOnly} onClick={() => setDisabling(true)}>
          <ShieldOff aria-hidden />
          {twoFactorMsg.disable}
        </Button>
      </div>
    );
  } else if (setup) {
    body = (
      <EnableForm
        setup={setup}
        onCancel={() => setSetup(null)}
        onEnabled={(codes) => {
          setSetup(null);
          setRecoveryCodes(codes);
          if (!heldToSetup) void refreshMe();
        }}
      />
    );
  } else {
    body = (
      <div className="grid justify-items-start gap-1">
        <PendingButton type="button" pending={setUp.isPending} disabled={readOnly} onClick={start}>
          <KeyRound aria-hidden />
          {twoFactorMsg.setup}
        </PendingButton>
        {readOnly ? <span className="text-xs text-muted-foreground">{msg.roles.demoReadOnly}</span> : null}
      </div>
    );
  }

  return (
    <Card data-testid="two-factor-card">
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <CardTitle>{twoFactorMsg.title}</CardTitle>
          <Badge tone={enabled || recoveryCodes ? 'green' : 'neutral'} data-testid="two-factor-status">
            {enabled || recoveryCodes ? twoFactorMsg.enabledBadge : twoFactorMsg.disabledBadge}
          </Badge>
        </div>
        <CardDescription>{twoFactorMsg.description}</CardDescription>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
