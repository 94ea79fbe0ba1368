import { zodResolver } from '@hookform/resolvers/zod';
import { KeyRound, QrCode, Smartphone } from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { pairingCodeForm, whatsappMsg } from '#contract/whatsapp-connection';
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
import { errorMessage } from '#web/lib/api';
import { connectionView, useWhatsappSession } from '#web/lib/queries/get-whatsapp-session';
import { useConnectWhatsapp } from '../api/connect-whatsapp';
import { PairedStep, QrCodeStep } from './pairing-steps';

type Mode = 'qr' | 'code';

/**
 * Pairs the personal number: opening it starts a connection and shows the QR code the server
 * reports (replaced as new ones arrive); pairing by a code typed on the phone is the alternative.
 */
export function ConnectWhatsappDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const session = useWhatsappSession();
  const connect = useConnectWhatsapp();
  const [mode, setMode] = useState<Mode>('qr');
  // The number stays typed when the dialog closes; its message shows with the connection's, below.
  const form = useForm({
    resolver: zodResolver(pairingCodeForm),
    defaultValues: { phoneNumber: '' },
    reValidateMode: 'onSubmit',
  });
  const phoneError = form.formState.errors.phoneNumber?.message;
  const [pairingCode, setPairingCode] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);
  const data = session.data;
  const view = connectionView(data);

  useEffect(() => {
    if (!open) {
      started.current = false;
      setPairingCode(null);
      setError(null);
      // Only when there is one: clearing always notifies the form, and this effect runs on every render.
      if (form.formState.errors.phoneNumber) form.clearErrors();
      setMode('qr');
      return;
    }
    if (started.current || !data || data.isConnected || data.state !== 'disconnected') return;
    started.current = true;
    connect.mutate(undefined, { onError: (e) => setError(errorMessage(e, whatsappMsg.connectFailed)) });
  }, [open, data, connect, form]);

  const requestCode = form.handleSubmit(
    (input) => {
      setError(null);
      connect.mutate(input, {
        onSuccess: (res) => setPairingCode(res.pairingCode),
        onError: (e) => setError(errorMessage(e, whatsappMsg.connectFailed)),
      });
    },
    () => setError(null),
  );
  const shownError = phoneError ?? error;

  let body: ReactNode;
  if (view !== 'offline') {
    body = (
      <PairedStep title="WhatsApp conectado!">
        {view === 'online' ? `Pronto para enviar mensagens pelo número ${data?.phoneNumber}.` : 'Detectando número...'}
      </PairedStep>
    );
  } else if (mode === 'qr') {
    body = <QrCodeStep qr={data?.state === 'qr' ? data.qr : null} openStep="Abra o WhatsApp no celular." />;
  } else {
    body = pairingCode ? (
      <div className="grid justify-items-center gap-3 text-center">
        <p className="text-sm text-muted-foreground">Digite este código no celular:</p>
        <p
          className="rounded-md border bg-muted px-4 py-2 font-mono text-2xl font-semibold tracking-widest"
          data-testid="pairing-code"
        >
          {pairingCode}
        </p>
        <p className="text-sm text-muted-foreground">
          WhatsApp › Aparelhos conectados › Conectar um aparelho › Conectar com número de telefone.
        </p>
      </div>
    ) : (
      <form onSubmit={requestCode} className="grid gap-3">
        <FormField
          label="Número do WhatsApp (com DDI e DDD)"
          inputMode="tel"
          autoComplete="tel"
          placeholder="5511987654321"
          required
          {...form.register('phoneNumber')}
        />
        <Button type="submit" disabled={connect.isPending}>
          {connect.isPending ? <Spinner /> : <KeyRound aria-hidden />}
          Gerar código de pareamento
        </Button>
      </form>
    );
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Conectar WhatsApp</DialogTitle>
          <DialogDescription>
            {view === 'offline'
              ? mode === 'qr'
                ? 'Escaneie o QR code com o WhatsApp do número que vai enviar as mensagens.'
                : 'Receba um código para digitar no WhatsApp do celular, sem escanear.'
              : 'Seu número está conectado.'}
          </DialogDescription>
        </DialogHeader>
        {body}
        {shownError ? (
          <p role="alert" className="text-sm font-medium text-red-700">
            {shownError}
          </p>
        ) : null}
        <DialogFooter>
          {view === 'offline' ? (
            <Button
              variant="outline"
              onClick={() => {
                setError(null);
                form.clearErrors();
                setMode(mode === 'qr' ? 'code' : 'qr');
              }}
            >
              {mode === 'qr' ? <Smartphone aria-hidden /> : <QrCode aria-hidden />}
              {mode === 'qr' ? 'Conectar com número de telefone' : 'Usar QR code'}
            </Button>
          ) : (
            <Button onClick={() => onOpenChange(false)}>Concluir</Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
