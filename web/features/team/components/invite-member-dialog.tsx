import { CircleCheck, Copy, MessageCircle } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Controller } from 'react-hook-form';
import { msg } from '#contract/messages';
import {
  type CreateInvitationInput,
  createInvitationInput,
  INVITATION_HOURS,
  memberRoles,
  TEAM_ROLE_DESCRIPTIONS,
  TEAM_ROLE_LABELS,
  teamMsg,
} from '#contract/team';
import { FieldError } from '#web/components/field-error';
import { emailInputProps } from '#web/components/field-presets';
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
import { toast } from '#web/components/ui/use-toast';
import { formFieldProps, useServerForm } from '#web/lib/use-server-form';
import { type CreateInvitationResponse, useCreateInvitation } from '../api/create-invitation';

const EMPTY: CreateInvitationInput = { name: '', email: '', role: 'agent' };

async function copyLink(url: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(url);
    toast({ title: msg.generic.copied, description: 'Link do convite copiado.', variant: 'success' });
  } catch (error) {
    // No clipboard permission (an insecure origin): the link stays on screen to be selected by hand.
    console.warn('Não foi possível copiar', error);
  }
}

/**
 * What an invitation gave: the server's words (e-mailed, or to be sent by hand) and the one-time
 * link, to copy or send by WhatsApp. The link is shown only here: the server keeps no copy of it.
 */
export function InvitationLink({ sent }: { sent: CreateInvitationResponse }) {
  const linkId = useId();
  const whatsapp = `https://wa.me/?text=${encodeURIComponent(
    `Olá, ${sent.invitation.name}! Este é o seu convite para a nossa equipe: ${sent.inviteUrl}`,
  )}`;
  return (
    <div className="grid min-w-0 gap-4">
      <p
        role="status"
        className="flex items-start gap-3 rounded-lg border border-green-200 bg-green-50 p-3 text-sm text-green-900"
      >
        <CircleCheck aria-hidden className="mt-0.5 size-5 shrink-0" />
        <span>{sent.message}</span>
      </p>
      <div className="grid min-w-0 gap-1.5">
        <p id={linkId} className="text-sm font-medium">
          Link do convite para {sent.invitation.name}
        </p>
        <code
          className="min-w-0 rounded-md border bg-muted px-3 py-2 text-xs break-all select-all"
          data-testid="invite-url"
        >
          {sent.inviteUrl}
        </code>
        <p className="text-xs text-muted-foreground">
          {`Funciona uma vez, por ${INVITATION_HOURS} horas. Quem abrir o link cria o próprio usuário e senha.`}
        </p>
      </div>
      <div className="grid gap-2 min-[420px]:grid-cols-2">
        <Button variant="outline" onClick={() => void copyLink(sent.inviteUrl)}>
          <Copy aria-hidden />
          Copiar link
        </Button>
        <Button asChild variant="outline">
          <a href={whatsapp} target="_blank" rel="noopener noreferrer">
            <MessageCircle aria-hidden />
            Enviar pelo WhatsApp
            <span className="sr-only">(abre em nova janela)</span>
          </a>
        </Button>
      </div>
    </div>
  );
}

/**
 * 'Convidar membro': name, e-mail and role (with what each role may do), checked by the contract's
 * `createInvitationInput`; once sent, the same dialog shows the link to copy.
 */
export function InviteMemberDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const create = useCreateInvitation();
  const [sent, setSent] = useState<CreateInvitationResponse | null>(null);
  const form = useServerForm(createInvitationInput, {
    defaultValues: EMPTY,
    serverFields: ['name', 'email', 'role'],
  });
  const roleId = useId();
  const roleError = form.formState.errors.role?.message;

  useEffect(() => {
    if (!open) return;
    setSent(null);
    form.reset(EMPTY);
  }, [open, form]);

  const submit = form.handleSubmit((input) =>
    create.mutate(input, {
      onSuccess: setSent,
      onError: (error) => form.failed(error, { title: 'Erro ao convidar', fallback: msg.generic.internal }),
    }),
  );

  const inviteAnother = () => {
    setSent(null);
    form.reset(EMPTY);
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>{sent ? 'Convite criado' : teamMsg.inviteTitle}</DialogTitle>
          <DialogDescription>
            {sent ? `${sent.invitation.name} aparece em Convites pendentes até aceitar.` : teamMsg.inviteDescription}
          </DialogDescription>
        </DialogHeader>

        {sent ? (
          <>
            <InvitationLink sent={sent} />
            <DialogFooter>
              <Button variant="outline" onClick={inviteAnother}>
                Convidar outra pessoa
              </Button>
              <Button onClick={() => onOpenChange(false)}>Concluir</Button>
            </DialogFooter>
          </>
        ) : (
          <form onSubmit={submit} noValidate className="grid gap-4">
            <FormField label="Nome" autoComplete="off" placeholder="Maria da Silva" {...formFieldProps(form, 'name')} />
            <FormField label="Email" {...emailInputProps} autoComplete="off" {...formFieldProps(form, 'email')} />
            <div className="grid gap-2">
              <p id={roleId} className="text-sm font-medium">
                Papel
              </p>
              <Controller
                control={form.control}
                name="role"
                render={({ field }) => (
                  <RadioGroup
                    aria-labelledby={roleId}
                    aria-describedby={roleError ? `${roleId}-error` : undefined}
                    value={field.value}
                    onValueChange={(v) => field.onChange(v)}
                  >
                    {memberRoles.map((r) => (
                      <div key={r} className="flex items-start gap-3 rounded-md border p-3">
                        <RadioGroupItem
                          value={r}
                          id={`${roleId}-${r}`}
                          aria-describedby={`${roleId}-${r}-hint`}
                          className="mt-0.5"
                        />
                        <div className="grid gap-0.5">
                          <Label htmlFor={`${roleId}-${r}`} className="cursor-pointer">
                            {TEAM_ROLE_LABELS[r]}
                          </Label>
                          <p id={`${roleId}-${r}-hint`} className="text-xs text-muted-foreground">
                            {TEAM_ROLE_DESCRIPTIONS[r]}
                          </p>
                        </div>
                      </div>
                    ))}
                  </RadioGroup>
                )}
              />
              <FieldError id={`${roleId}-error`} message={roleError} />
            </div>
            <DialogFooter>
              <Button variant="outline" onClick={() => onOpenChange(false)}>
                Cancelar
              </Button>
              <Button type="submit" disabled={create.isPending}>
                {create.isPending ? <Spinner /> : null}
                {create.isPending ? 'Enviando...' : teamMsg.inviteSubmit}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
