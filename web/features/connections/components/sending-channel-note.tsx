import { Send } from 'lucide-react';
import { useWhatsappChannel } from '#web/lib/queries/get-whatsapp-channel';
import { connectionView, useWhatsappSession } from '#web/lib/queries/get-whatsapp-session';
import { cn } from '#web/lib/utils';

/**
 * Which channel will send (the kind of the account's default number, chosen on 'Números') and
 * whether it is ready; shown by the connection card of an account with one number.
 */
export function SendingChannelNote({ className }: { className?: string }) {
  const channel = useWhatsappChannel();
  const session = useWhatsappSession();
  if (!channel.data) return null;
  const kind = channel.data.channel;
  // The personal number's readiness follows the 2-second session poll rather than this slower query.
  const ready = kind === 'personal' ? connectionView(session.data) === 'online' : channel.data.ready;
  const name = kind === 'cloud' ? 'API oficial do WhatsApp Business' : 'Número pessoal (QR code)';
  const state =
    kind === 'cloud'
      ? ready
        ? 'pronta para enviar'
        : channel.data.cloud.configured
          ? 'credenciais recusadas: verifique a aba API WhatsApp'
          : 'não configurada: configure na aba API WhatsApp'
      : ready
        ? 'pronto para enviar'
        : 'não conectado';
  return (
    <p
      className={cn('flex items-start gap-2 text-sm', ready ? 'text-muted-foreground' : 'text-amber-900', className)}
      data-testid="sending-channel"
    >
      <Send aria-hidden className="mt-0.5 size-4 shrink-0" />
      <span>
        Envio pelo canal: <span className="font-medium">{name}</span> — {state}.
      </span>
    </p>
  );
}
