import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { type Campaign, campaignMsg, testCampaignForm } from '#contract/campaigns';
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
import { Spinner } from '#web/components/ui/spinner';
import { toastError, toastSuccess } from '#web/lib/toasts';
import { useSendTestMessage } from '../api/send-test-message';

/** 'Enviar teste': the campaign's message once to a number, the account's own when left empty. */
export function TestMessageDialog({ campaign, onClose }: { campaign: Campaign | null; onClose: () => void }) {
  const send = useSendTestMessage();
  const form = useForm({ resolver: zodResolver(testCampaignForm), defaultValues: { phone: '' } });

  useEffect(() => {
    if (campaign) form.reset({ phone: '' });
  }, [campaign, form]);

  const submit = form.handleSubmit(
    ({ phone }) => {
      if (!campaign) return;
      send.mutate(
        { id: campaign.id, phone: phone || undefined },
        {
          onSuccess: (res) => {
            // The server names the number it used (the account's own one when none was typed).
            toastSuccess(res.message);
            onClose();
          },
          onError: (error) => toastError(error, campaignMsg.testError),
        },
      );
    },
    // The server would refuse the same number with the same message, shown as a toast.
    (invalid) => {
      if (invalid.phone?.message) toastError(invalid.phone.message);
    },
  );

  return (
    <Dialog open={campaign !== null} onOpenChange={(open) => !open && !send.isPending && onClose()}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Enviar teste</DialogTitle>
          <DialogDescription>
            Envia a mensagem de “{campaign?.name}” uma única vez, para você conferir como ela chega.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <FormField
            label="Número para o teste"
            type="tel"
            {...form.register('phone')}
            placeholder="(11) 98765-4321"
            hint="Deixe em branco para enviar ao número do seu WhatsApp conectado."
            autoComplete="off"
          />
          <DialogFooter>
            <Button variant="outline" onClick={onClose} disabled={send.isPending}>
              Cancelar
            </Button>
            <Button type="submit" disabled={send.isPending}>
              {send.isPending ? <Spinner /> : null}
              {send.isPending ? 'Enviando...' : 'Enviar teste'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
