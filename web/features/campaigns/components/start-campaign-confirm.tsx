import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Campaign, StartForecast } from '#contract/campaigns';
import { formatPhone } from '#contract/phone';
import { countLabel } from '#contract/plural';
import { ConfirmDialog } from '#web/components/confirm-dialog';
import { Spinner } from '#web/components/ui/spinner';
import { api } from '#web/lib/api';
import { capacityToday, useConnections } from '#web/lib/queries/connections';
import { useWhatsappChannel } from '#web/lib/queries/get-whatsapp-channel';
import { connectionView, useWhatsappSession } from '#web/lib/queries/get-whatsapp-session';
import { audienceQueryKey } from '#web/lib/query-keys';
import { startConfirmText } from '../start-confirm';

/** GET /api/campaigns/{id}/forecast: who a start now would send to, and the server's forecast of its end. */
const forecastPath = (c: Campaign) => `/api/campaigns/${encodeURIComponent(c.id)}/forecast`;

/** What the confirmation is computed from, read while it is open (its body is mounted only then). */
function useStartFacts(campaign: Campaign) {
  const path = forecastPath(campaign);
  const start = useQuery({
    queryKey: [...audienceQueryKey, path],
    queryFn: ({ signal }) => api.get<StartForecast>(path, { signal }),
    // Counted afresh each time the dialog opens: contacts, settings and today's sends change.
    staleTime: 0,
    gcTime: 0,
  });
  const channel = useWhatsappChannel();
  const session = useWhatsappSession();
  // The chosen numbers, when the campaign has some: who sends and what is left of their day.
  const connections = useConnections();
  return { start, channel, session, connections };
}

/**
 * 'Enviar Campanha' / 'Enviar agora' asks first: how many recipients, through which number, and
 * when the last message should go out by the account's pace, daily limit and business hours — the
 * server's forecast (server/modules/campaigns/campaign-forecast.ts), the one the campaign card shows
 * once it runs. Confirmar starts the campaign; Cancelar (or Escape) sends nothing.
 */
export function StartCampaignConfirm({
  campaign,
  open,
  onOpenChange,
  onConfirm,
}: {
  campaign: Campaign;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
}) {
  // Mounted only while open: the facts are read afresh each time it opens.
  return open ? <OpenConfirm campaign={campaign} onClose={() => onOpenChange(false)} onConfirm={onConfirm} /> : null;
}

function OpenConfirm({
  campaign,
  onClose,
  onConfirm,
}: {
  campaign: Campaign;
  onClose: () => void;
  onConfirm: () => void;
}) {
  const facts = useStartFacts(campaign);
  const { start, channel, session, connections } = facts;
  const chosenIds = campaign.connectionIds;
  const numbersPending = (chosenIds?.length ?? 0) > 0 && connections.isPending;
  const loading = start.isPending || channel.isPending || numbersPending;
  const chosen = useMemo(
    () => (connections.data?.connections ?? []).filter((c) => chosenIds?.includes(c.id)),
    [connections.data, chosenIds],
  );
  const audience = start.data?.audience;

  const text = useMemo(() => {
    if (!start.data) return null;
    const { audience, forecast } = start.data;
    const kind = channel.data?.channel ?? forecast.channel;
    const personalNumber =
      connectionView(session.data) === 'online'
        ? (session.data?.phoneNumber ?? null)
        : (channel.data?.personal.phoneNumber ?? null);
    const phoneNumber = kind === 'cloud' ? (channel.data?.cloud.phoneNumber ?? null) : personalNumber;
    return startConfirmText({
      recipients: audience.recipients,
      phoneNumber,
      channel: kind,
      numbers: chosen.map((c) => (c.phoneNumber ? `${c.label} (${formatPhone(c.phoneNumber)})` : c.label)),
      capacityToday: chosen.reduce((sum, c) => sum + capacityToday(c), 0),
      forecast: {
        finishAt: forecast.finishAt ? new Date(forecast.finishAt) : null,
        waitsForDailyLimit: forecast.waitsForDailyLimit,
        waitsForBusinessHours: forecast.waitsForBusinessHours,
      },
      dailyLimit: forecast.dailyLimit,
      businessStart: forecast.businessStart,
      businessEnd: forecast.businessEnd,
      now: new Date(),
    });
  }, [start.data, channel.data, session.data, chosen]);

  const kind = channel.data?.channel ?? start.data?.forecast.channel;
  const offline =
    chosen.length > 0
      ? !chosen.some((c) => c.status === 'connected' && !c.paused)
      : channel.data
        ? kind === 'cloud'
          ? !channel.data.ready
          : connectionView(session.data) !== 'online'
        : false;
  const skipped = audience?.skipped ?? 0;
  const nobody = audience !== undefined && audience.recipients === 0;

  return (
    <ConfirmDialog
      open
      onCancel={onClose}
      testId="start-campaign-confirm"
      title={campaign.status === 'scheduled' ? 'Enviar agora?' : 'Enviar campanha?'}
      description={
        <>
          A campanha <span className="font-medium text-foreground">{campaign.name}</span> começa a ser enviada assim que
          você confirmar.
        </>
      }
      confirmLabel="Confirmar"
      destructive={false}
      confirmDisabled={loading}
      onConfirm={() => {
        onClose();
        onConfirm();
      }}
    >
      <div className="grid gap-2 text-sm text-muted-foreground">
        {loading ? (
          <p className="flex items-center gap-2" role="status">
            <Spinner />
            Calculando destinatários e previsão…
          </p>
        ) : text ? (
          <p className="font-medium text-foreground" data-testid="start-confirm-summary">
            {text.summary}.
          </p>
        ) : (
          <p>Não foi possível calcular os destinatários agora. Você ainda pode enviar.</p>
        )}
        {!loading && text
          ? text.notes.map((note) => (
              <p key={note} data-testid="start-confirm-note">
                {note}
              </p>
            ))
          : null}
        {!loading && skipped > 0 ? (
          <p>
            {countLabel(skipped, 'destinatário fica', 'destinatários ficam')} de fora (
            {audience?.skippedReasons.map((r) => `${r.reason.replace(/\.$/, '')}: ${r.count}`).join('; ')}
            ).
          </p>
        ) : null}
        {!loading && nobody ? (
          <p className="text-amber-900">Nenhum destinatário receberia esta campanha agora.</p>
        ) : null}
        {!loading && offline ? (
          <p className="text-amber-900">
            {chosen.length > 0
              ? 'Nenhum dos números escolhidos está conectado: a campanha espera um deles para começar.'
              : kind === 'cloud'
                ? 'A API oficial não está pronta: a campanha espera até ela voltar.'
                : 'O número não está conectado: a campanha espera a conexão para começar.'}
          </p>
        ) : null}
      </div>
    </ConfirmDialog>
  );
}
