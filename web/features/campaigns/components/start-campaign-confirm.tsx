import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { AudienceSummary, Campaign } from '../../../../contract/campaigns';
import type { TodayMetrics } from '../../../../contract/metrics';
import { formatPhone } from '../../../../contract/phone';
import { countLabel } from '../../../../contract/plural';
import { forecastSend } from '../../../../contract/send-forecast';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '../../../components/ui/alert-dialog';
import { Spinner } from '../../../components/ui/spinner';
import { api } from '../../../lib/api';
import { capacityToday, useConnections } from '../../../lib/queries/connections';
import { useBotConfig } from '../../../lib/queries/get-bot-config';
import { useWhatsappChannel } from '../../../lib/queries/get-whatsapp-channel';
import { connectionView, useWhatsappSession } from '../../../lib/queries/get-whatsapp-session';
import { useWhatsappSettings } from '../../../lib/queries/get-whatsapp-settings';
import { keyPathQueryFn } from '../../../lib/query-client';
import { audienceQueryKey, todayMetricsQueryKey } from '../../../lib/query-keys';
import { startConfirmText } from '../start-confirm';

type Audience = Pick<Campaign, 'targetType' | 'targetGroups' | 'targetTags'>;

/** GET /api/campaigns/audience: who the campaign would go to if it started now. */
function audiencePath(c: Audience): string {
  const q = new URLSearchParams({ targetType: c.targetType });
  for (const g of c.targetGroups ?? []) q.append('groups', g);
  for (const t of c.targetTags ?? []) q.append('tags', t);
  return `/api/campaigns/audience?${q}`;
}

/** What the confirmation is computed from, read while it is open (its body is mounted only then). */
function useStartFacts(campaign: Campaign) {
  const path = audiencePath(campaign);
  const audience = useQuery({
    queryKey: [...audienceQueryKey, path],
    queryFn: ({ signal }) => api.get<AudienceSummary>(path, { signal }),
    // Counted afresh each time the dialog opens: contacts change.
    staleTime: 0,
    gcTime: 0,
  });
  const settings = useWhatsappSettings();
  // Business days are the chatbot's business hours: read only when campaigns keep to them.
  const bot = useBotConfig(settings.data?.respectBusinessHours === true);
  const channel = useWhatsappChannel();
  const session = useWhatsappSession();
  // What went out today already counts against the daily limit (the header's own query).
  const today = useQuery({ queryKey: todayMetricsQueryKey, queryFn: keyPathQueryFn<TodayMetrics>(), staleTime: 0 });
  // The chosen numbers, when the campaign has some: who sends, their pace and what is left of their day.
  const connections = useConnections();
  return { audience, settings, bot, channel, session, today, connections };
}

/**
 * 'Enviar Campanha' / 'Enviar agora' asks first: how many recipients, through which number, and
 * when the last message should go out by the account's pace, daily limit and business hours
 * (contract/send-forecast.ts). Confirmar starts the campaign; Cancelar (or Escape) sends nothing.
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
  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      <AlertDialogContent data-testid="start-campaign-confirm">
        {open ? <ConfirmBody campaign={campaign} onConfirm={onConfirm} /> : null}
      </AlertDialogContent>
    </AlertDialog>
  );
}

function ConfirmBody({ campaign, onConfirm }: { campaign: Campaign; onConfirm: () => void }) {
  const facts = useStartFacts(campaign);
  const { audience, settings, bot, channel, session, today, connections } = facts;
  const businessPending = settings.data?.respectBusinessHours === true && bot.isPending;
  const chosenIds = campaign.connectionIds;
  const numbersPending = (chosenIds?.length ?? 0) > 0 && connections.isPending;
  const loading =
    audience.isPending ||
    settings.isPending ||
    channel.isPending ||
    today.isPending ||
    businessPending ||
    numbersPending;
  const chosen = useMemo(
    () => (connections.data?.connections ?? []).filter((c) => chosenIds?.includes(c.id)),
    [connections.data, chosenIds],
  );

  const text = useMemo(() => {
    if (!audience.data || !settings.data) return null;
    const s = settings.data;
    const kind = channel.data?.channel ?? s.channel;
    const personalNumber =
      connectionView(session.data) === 'online'
        ? (session.data?.phoneNumber ?? null)
        : (channel.data?.personal.phoneNumber ?? null);
    const phoneNumber = kind === 'cloud' ? (channel.data?.cloud.phoneNumber ?? null) : personalNumber;
    const now = new Date();
    // Several numbers send side by side: their days add up, and together they go that many times faster.
    const lanes = chosen.filter((c) => c.status === 'connected' && !c.paused);
    const several = chosen.length > 0;
    const forecast = forecastSend({
      recipients: audience.data.recipients,
      channel: kind,
      messageDelay: several ? s.messageDelay / Math.max(1, lanes.length) : s.messageDelay,
      dailyLimit: several ? chosen.reduce((sum, c) => sum + c.dailyLimit, 0) : s.dailyLimit,
      sentToday: several ? chosen.reduce((sum, c) => sum + c.sentToday, 0) : (today.data?.sentToday ?? 0),
      respectBusinessHours: s.respectBusinessHours,
      businessStart: s.businessStart,
      businessEnd: s.businessEnd,
      businessDays: bot.data?.businessHours.days ?? [],
      now,
    });
    return startConfirmText({
      recipients: audience.data.recipients,
      phoneNumber,
      channel: kind,
      numbers: chosen.map((c) => (c.phoneNumber ? `${c.label} (${formatPhone(c.phoneNumber)})` : c.label)),
      capacityToday: chosen.reduce((sum, c) => sum + capacityToday(c), 0),
      forecast,
      dailyLimit: several ? chosen.reduce((sum, c) => sum + c.dailyLimit, 0) : s.dailyLimit,
      businessStart: s.businessStart,
      businessEnd: s.businessEnd,
      now,
    });
  }, [audience.data, settings.data, channel.data, session.data, today.data, bot.data, chosen]);

  const kind = channel.data?.channel ?? settings.data?.channel;
  const offline =
    chosen.length > 0
      ? !chosen.some((c) => c.status === 'connected' && !c.paused)
      : channel.data
        ? kind === 'cloud'
          ? !channel.data.ready
          : connectionView(session.data) !== 'online'
        : false;
  const skipped = audience.data?.skipped ?? 0;
  const nobody = audience.data !== undefined && audience.data.recipients === 0;

  return (
    <>
      <AlertDialogHeader>
        <AlertDialogTitle>{campaign.status === 'scheduled' ? 'Enviar agora?' : 'Enviar campanha?'}</AlertDialogTitle>
        <AlertDialogDescription asChild>
          <div className="grid gap-2">
            <p>
              A campanha <span className="font-medium text-foreground">{campaign.name}</span> começa a ser enviada assim
              que você confirmar.
            </p>
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
                {audience.data?.skippedReasons.map((r) => `${r.reason.replace(/\.$/, '')}: ${r.count}`).join('; ')}
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
        </AlertDialogDescription>
      </AlertDialogHeader>
      <AlertDialogFooter>
        <AlertDialogCancel>Cancelar</AlertDialogCancel>
        <AlertDialogAction disabled={loading} onClick={onConfirm}>
          Confirmar
        </AlertDialogAction>
      </AlertDialogFooter>
    </>
  );
}
