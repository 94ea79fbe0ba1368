import {
  BarChart3,
  CalendarClock,
  Clock,
  Copy,
  FlaskConical,
  Image as ImageIcon,
  Info,
  Pause,
  Pencil,
  Play,
  Send,
  Trash2,
  Users,
  XCircle,
} from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import type { Campaign } from '#contract/campaigns';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { Spinner } from '#web/components/ui/spinner';
import { useTeamAllows } from '#web/lib/auth/use-can-act';
import { formatDateTime, formatNumber } from '#web/lib/format';
import { paths } from '#web/lib/paths';
import { cn } from '#web/lib/utils';
import type { CampaignCommand } from '../api/run-campaign-action';
import {
  audienceText,
  campaignAttachments,
  campaignFigures,
  createdText,
  expectedFinishText,
  waitingText,
} from '../campaign-view';
import { canRunAction, isRunningStatus } from '../status';
import { CampaignProgress } from './campaign-progress';
import { CampaignStatusBadge } from './campaign-status-badge';
import { DeliveryRate } from './delivery-rate';
import { StartCampaignConfirm } from './start-campaign-confirm';

const FINISHED: ReadonlySet<string> = new Set(['completed', 'cancelled', 'failed']);

export interface CampaignCardHandlers {
  onCommand: (campaign: Campaign, command: CampaignCommand) => void;
  onEdit: (campaign: Campaign) => void;
  onTest: (campaign: Campaign) => void;
  onReport: (campaign: Campaign) => void;
  onCancel: (campaign: Campaign) => void;
  onDelete: (campaign: Campaign) => void;
}

function Counter({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums" data-testid={testId}>
        {formatNumber(value)}
      </dd>
    </div>
  );
}

function Note({
  icon,
  tone = 'muted',
  children,
}: {
  icon: ReactNode;
  tone?: 'muted' | 'warning';
  children: ReactNode;
}) {
  return (
    <p
      className={
        tone === 'warning'
          ? 'flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900'
          : 'flex items-start gap-2 text-sm text-muted-foreground'
      }
    >
      <span className="mt-0.5 shrink-0 [&_svg]:size-4">{icon}</span>
      <span>{children}</span>
    </p>
  );
}

/** One campaign: status, message, audience, counters, live progress while it runs, and its actions. */
export function CampaignCard({
  campaign: c,
  now,
  busy,
  handlers,
}: {
  campaign: Campaign;
  now: number;
  /** The command running for this campaign, if any. */
  busy: CampaignCommand | null;
  handlers: CampaignCardHandlers;
}) {
  const running = isRunningStatus(c.status);
  // Sent, delivered, read and the delivery rate (over sent + failed), as every screen counts them.
  const figures = campaignFigures(c);
  const showProgress = c.status !== 'draft' && c.progress !== undefined && c.progress.total > 0;
  const finish = running && c.status !== 'scheduled' ? expectedFinishText(c.expectedFinishAt, now) : null;
  const waiting = c.status === 'in_progress' ? waitingText(c.waitingReason) : null;
  const scheduledAt = c.status === 'scheduled' && c.scheduledAt ? formatDateTime(c.scheduledAt) : '';
  const finishedAt = FINISHED.has(c.status) && c.finishedAt ? formatDateTime(c.finishedAt) : '';

  // Every card has the same buttons: the hidden name tells them apart for screen readers.
  const forName = <span className="sr-only"> {c.name}</span>;
  // Sending to everyone asks first (recipients, number, forecast): start-campaign-confirm.tsx.
  const [confirmingSend, setConfirmingSend] = useState(false);
  // An agent follows campaigns and opens their reports (a draft has none): every other action is the managers'.
  const manages = useTeamAllows('manager');
  const command = (
    cmd: CampaignCommand,
    label: string,
    icon: ReactNode,
    variant: 'default' | 'outline' = 'outline',
  ) => (
    <PermissionGatedButton
      kind="campaign"
      size="sm"
      variant={variant}
      icon={busy === cmd ? <Spinner /> : icon}
      disabled={busy !== null}
      onClick={() => (cmd === 'send' ? setConfirmingSend(true) : handlers.onCommand(c, cmd))}
    >
      {label}
      {forName}
    </PermissionGatedButton>
  );

  return (
    <Card className="grid gap-4 p-5" data-testid="campaign-card">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid min-w-0 gap-1">
          <div className="flex min-w-0 flex-wrap items-center gap-2">
            <h3 className="min-w-0 truncate text-base font-semibold">{c.name}</h3>
            <CampaignStatusBadge status={c.status} />
            {c.imageUrl ? (
              <Badge tone="outline">
                <ImageIcon aria-hidden />
                Com imagem
              </Badge>
            ) : null}
            {campaignAttachments(c).map((line) => (
              <Badge key={line} tone="outline" className="max-w-full min-w-0">
                <span className="truncate">{line}</span>
              </Badge>
            ))}
          </div>
          <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
            <span className="inline-flex items-center gap-1">
              <Users aria-hidden className="size-3.5" />
              {audienceText(c)}
            </span>
            <span>{createdText(c.createdAt)}</span>
          </p>
        </div>
        <DeliveryRate figures={figures} testId="delivery-rate" />
      </div>

      <p className="line-clamp-3 text-sm break-words whitespace-pre-line text-foreground/90">{c.message}</p>

      <dl className="grid grid-cols-3 gap-3 rounded-md bg-muted/60 px-4 py-3 sm:max-w-md">
        <Counter label="Enviadas" value={figures.sent} testId="counter-sent" />
        <Counter label="Entregues" value={figures.delivered} testId="counter-delivered" />
        <Counter label="Lidas" value={figures.read} testId="counter-read" />
      </dl>

      {scheduledAt ? <Note icon={<CalendarClock aria-hidden />}>Envio agendado para {scheduledAt}</Note> : null}
      {showProgress && c.progress ? (
        <CampaignProgress progress={c.progress} label={`Progresso do envio de ${c.name}`} />
      ) : null}
      {finishedAt ? <Note icon={<Clock aria-hidden />}>Finalizada em {finishedAt}</Note> : null}
      {finish ? <Note icon={<Clock aria-hidden />}>{finish}</Note> : null}
      {waiting ? (
        <Note icon={<Info aria-hidden />} tone="warning">
          {waiting}
          {c.waitingReason === 'numbers_stopped' && manages ? (
            <>
              {' '}
              <Link to={paths.connections} className="font-medium underline underline-offset-4">
                Ver números
              </Link>
            </>
          ) : null}
        </Note>
      ) : null}
      {c.status === 'paused' && c.pauseReason ? (
        <Note icon={<Pause aria-hidden />} tone="warning">
          {c.pauseReason}
        </Note>
      ) : null}

      <div
        className={cn('flex flex-wrap items-center gap-2 border-t pt-4', !manages && c.status === 'draft' && 'hidden')}
      >
        {c.status === 'draft' ? command('send', 'Enviar Campanha', <Send aria-hidden />, 'default') : null}
        {c.status === 'scheduled' ? command('send', 'Enviar agora', <Send aria-hidden />, 'default') : null}
        <StartCampaignConfirm
          campaign={c}
          open={confirmingSend}
          onOpenChange={setConfirmingSend}
          onConfirm={() => handlers.onCommand(c, 'send')}
        />
        {canRunAction('pause', c.status) ? command('pause', 'Pausar', <Pause aria-hidden />) : null}
        {canRunAction('resume', c.status) ? command('resume', 'Retomar', <Play aria-hidden />, 'default') : null}
        {canRunAction('edit', c.status) ? (
          <PermissionGatedButton
            kind="campaign"
            size="sm"
            variant="outline"
            icon={<Pencil aria-hidden />}
            onClick={() => handlers.onEdit(c)}
          >
            Editar
            {forName}
          </PermissionGatedButton>
        ) : null}
        <PermissionGatedButton
          kind="campaign"
          size="sm"
          variant="outline"
          icon={<FlaskConical aria-hidden />}
          onClick={() => handlers.onTest(c)}
        >
          Enviar teste
          {forName}
        </PermissionGatedButton>
        {command('duplicate', 'Duplicar', <Copy aria-hidden />)}
        {c.status !== 'draft' ? (
          <Button variant="outline" size="sm" onClick={() => handlers.onReport(c)}>
            <BarChart3 aria-hidden />
            Relatório
            {forName}
          </Button>
        ) : null}
        {canRunAction('cancel', c.status) ? (
          <PermissionGatedButton
            kind="campaign"
            size="sm"
            variant="ghost"
            className="text-red-700 hover:bg-red-50"
            icon={<XCircle aria-hidden />}
            disabled={busy !== null}
            onClick={() => handlers.onCancel(c)}
          >
            Cancelar
            {forName}
          </PermissionGatedButton>
        ) : null}
        <PermissionGatedButton
          kind="campaign"
          size="sm"
          variant="ghost"
          className="text-red-700 hover:bg-red-50 sm:ml-auto"
          icon={<Trash2 aria-hidden />}
          onClick={() => handlers.onDelete(c)}
        >
          Excluir
          {forName}
        </PermissionGatedButton>
      </div>
    </Card>
  );
}
