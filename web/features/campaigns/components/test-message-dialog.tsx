import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { type Campaign, campaignMsg, testCampaignForm } from '#contract/campaigns';
import { FormDialog } from '#web/components/form-dialog';
import { FormField } from '#web/components/form-field';
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
    <FormDialog
      open={campaign !== null}
      onOpenChange={(next) => !next && onClose()}
      title="Enviar teste"
      description={<>Envia a mensagem de “{campaign?.name}” uma única vez, para você conferir como ela chega.</>}
      className="sm:max-w-md"
      onSubmit={submit}
      pending={send.isPending}
      submitLabel="Enviar teste"
      pendingLabel="Enviando..."
      lockWhilePending
    >
      <FormField
        label="Número para o teste"
        type="tel"
        {...form.register('phone')}
        placeholder="(11) 98765-4321"
        hint="Deixe em branco para enviar ao número do seu WhatsApp conectado."
        autoComplete="off"
      />
    </FormDialog>
  );
}
