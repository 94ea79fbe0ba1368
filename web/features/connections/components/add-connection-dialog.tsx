import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import {
  type ConnectionKind,
  type CreateConnectionInput,
  connectionKinds,
  createConnectionInput,
} from '#contract/connections';
import { CloudCredentialsFields } from '#web/components/cloud-credentials-fields';
import { FormField } from '#web/components/form-field';
import { Button } from '#web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '#web/components/ui/dialog';
import { Label } from '#web/components/ui/label';
import { RadioGroup, RadioGroupItem } from '#web/components/ui/radio-group';
import { Spinner } from '#web/components/ui/spinner';
import { errorMessage, isApiError } from '#web/lib/api';
import { paths } from '#web/lib/paths';
import { toastError, toastSuccess } from '#web/lib/toasts';
import { useCreateConnection } from '../api/create-connection';
import { KIND_LABELS } from './connection-labels';
import { PairingPanel } from './pairing-panel';

const CREATE_FAILED = 'Não foi possível adicionar o número. Tente novamente.';

const KIND_HINTS: Record<ConnectionKind, string> = {
  personal: 'Conecte um celular escaneando o QR code, como no WhatsApp Web.',
  cloud: 'Use as credenciais do seu app no Meta for Developers.',
};

/** Every field the form may hold; the contract keeps only those of the chosen kind. */
const EMPTY: CreateConnectionInput = {
  kind: 'personal',
  label: '',
  accessToken: '',
  phoneNumberId: '',
  businessAccountId: '',
  appId: '',
  appSecret: '',
} as CreateConnectionInput;

const SERVER_FIELDS = ['label', 'accessToken', 'phoneNumberId', 'businessAccountId', 'appId', 'appSecret'] as const;

/** A refusal the dialog explains in place: over the plan's limit (with the plans link) or a number in use. */
interface Refusal {
  message: string;
  plans: boolean;
}

/**
 * 'Adicionar número': a personal number (then paired by QR code in the same dialog) or a Cloud API
 * number (its credentials checked by the server against the Graph API).
 */
export function AddConnectionDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const create = useCreateConnection();
  const form = useForm<CreateConnectionInput>({
    resolver: zodResolver(createConnectionInput),
    defaultValues: EMPTY,
    reValidateMode: 'onSubmit',
  });
  const { errors } = form.formState;
  const cloudErrors = errors as Partial<Record<(typeof SERVER_FIELDS)[number], { message?: string }>>;
  const kind = form.watch('kind');
  const [pairing, setPairing] = useState<{ id: string; label: string } | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const ids = { kind: useId(), refusal: useId() };

  useEffect(() => {
    if (open) return;
    form.reset(EMPTY);
    setPairing(null);
    setRefusal(null);
  }, [open, form]);

  const submit = form.handleSubmit((input) => {
    setRefusal(null);
    create.mutate(input, {
      onSuccess: (res) => {
        if (res.connection.kind === 'personal') {
          setPairing({ id: res.connection.id, label: res.connection.label });
          return;
        }
        toastSuccess(res.message);
        onOpenChange(false);
      },
      onError: (error) => {
        if (isApiError(error)) {
          for (const field of SERVER_FIELDS) {
            const message = error.fieldErrors?.[field];
            if (message) form.setError(field, { type: 'server', message });
          }
          if (error.status === 403 || error.status === 409) {
            setRefusal({ message: errorMessage(error, CREATE_FAILED), plans: error.status === 403 });
            return;
          }
        }
        toastError(error, CREATE_FAILED);
      },
    });
  });

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>{pairing ? `Conectar ${pairing.label}` : 'Adicionar número'}</DialogTitle>
          <DialogDescription>
            {pairing
              ? 'Conecte pelo WhatsApp do celular que vai enviar as mensagens.'
              : 'Escolha como o número envia: pelo WhatsApp do celular ou pela API oficial da Meta.'}
          </DialogDescription>
        </DialogHeader>

        {pairing ? (
          <PairingPanel connectionId={pairing.id} start onDone={() => onOpenChange(false)} />
        ) : (
          <form onSubmit={submit} noValidate className="grid gap-4">
            <div className="grid gap-2">
              <p id={ids.kind} className="text-sm font-medium">
                Tipo de número
              </p>
              <Controller
                control={form.control}
                name="kind"
                render={({ field }) => (
                  <RadioGroup
                    aria-labelledby={ids.kind}
                    value={field.value}
                    onValueChange={(v) => {
                      form.clearErrors();
                      setRefusal(null);
                      field.onChange(v as ConnectionKind);
                    }}
                  >
                    {connectionKinds.map((k) => (
                      <div key={k} className="flex items-start gap-3 rounded-md border p-3">
                        <RadioGroupItem
                          value={k}
                          id={`${ids.kind}-${k}`}
                          aria-describedby={`${ids.kind}-${k}-hint`}
                          className="mt-0.5"
                        />
                        <div className="grid gap-0.5">
                          <Label htmlFor={`${ids.kind}-${k}`} className="cursor-pointer">
                            {KIND_LABELS[k]}
                          </Label>
                          <p id={`${ids.kind}-${k}-hint`} className="text-xs text-muted-foreground">
                            {KIND_HINTS[k]}
                          </p>
                        </div>
                      </div>
                    ))}
                  </RadioGroup>
                )}
              />
            </div>

            <FormField
              label="Nome do número"
              placeholder="Ex.: Vendas, Suporte"
              autoComplete="off"
              hint="Só para você reconhecer o número nas campanhas e nos relatórios."
              error={errors.label?.message}
              {...form.register('label')}
            />

            {kind === 'cloud' ? (
              <div className="grid gap-4 sm:grid-cols-2">
                <CloudCredentialsFields register={(name) => form.register(name)} errors={cloudErrors} />
              </div>
            ) : null}

            {refusal ? (
              <div
                id={ids.refusal}
                role="alert"
                className="grid gap-1 rounded-md bg-red-50 p-3 text-sm text-red-800"
                data-testid="add-connection-refusal"
              >
                <p className="font-medium">{refusal.message}</p>
                {refusal.plans ? (
                  <Link to={paths.settingsPlans} className="font-medium underline underline-offset-4">
                    Ver planos
                  </Link>
                ) : null}
              </div>
            ) : null}

            <DialogFooter>
              <Button variant="outline" onClick={() => onOpenChange(false)}>
                Cancelar
              </Button>
              <Button type="submit" disabled={create.isPending}>
                {create.isPending ? <Spinner /> : null}
                {create.isPending
                  ? kind === 'cloud'
                    ? 'Verificando credenciais...'
                    : 'Adicionando...'
                  : kind === 'cloud'
                    ? 'Adicionar número'
                    : 'Adicionar e conectar'}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
