import { Pause, Pencil, Play, QrCode, ShieldCheck, SlidersHorizontal, Star, Trash2, Unplug } from 'lucide-react';
import type { ConnectionView } from '#contract/connections';
import { formatPhone } from '#contract/phone';
import { countLabel } from '#contract/plural';
import { ConnectionBadges } from '#web/components/connection-badges';
import { CopyField } from '#web/components/copy-field';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { Label } from '#web/components/ui/label';
import { Spinner } from '#web/components/ui/spinner';
import { Switch } from '#web/components/ui/switch';
import { useCanAct } from '#web/lib/auth/use-can-act';
import { formatNumber } from '#web/lib/format';
import { cn } from '#web/lib/utils';
import {
  canClearRestriction,
  HEALTH_LEVELS,
  healthSignals,
  isPairing,
  KIND_LABELS,
  needsPairing,
} from './connection-labels';

/** The Cloud API webhook address to paste in Meta's panel: the server's, else this site's address and the path. */
function webhookAddress(connection: ConnectionView): string | null {
  if (connection.webhookUrl) return connection.webhookUrl;
  return connection.webhookPath ? `${window.location.origin}${connection.webhookPath}` : null;
}

export interface ConnectionActions {
  onConnect: (connection: ConnectionView) => void;
  onDisconnect: (connection: ConnectionView) => void;
  onMakeDefault: (connection: ConnectionView) => void;
  onTogglePause: (connection: ConnectionView) => void;
  onToggleBot: (connection: ConnectionView, enabled: boolean) => void;
  onRename: (connection: ConnectionView) => void;
  onConfigure: (connection: ConnectionView) => void;
  onRemove: (connection: ConnectionView) => void;
  /** 'Liberar número': WhatsApp lifted the restriction before the 24 h ran out (asks to confirm first). */
  onClearRestriction: (connection: ConnectionView) => void;
}

/** One number of the 'Números' page: who it is, its state and health, today's sends and its actions. */
export function ConnectionCard({
  connection: c,
  busy,
  actions,
}: {
  connection: ConnectionView;
  /** A change to this number is on its way: its quick actions wait. */
  busy: boolean;
  actions: ConnectionActions;
}) {
  const health = HEALTH_LEVELS[c.health.level];
  const personal = c.kind === 'personal';
  const webhook = c.kind === 'cloud' ? webhookAddress(c) : null;
  const headingId = `connection-${c.id}`;
  const botSwitchId = `connection-${c.id}-bot`;
  const canChange = useCanAct().state === 'allowed';
  // Each action names its number for screen readers: 'Remover Vendas'.
  const of = <span className="sr-only"> {c.label}</span>;

  return (
    <li
      aria-labelledby={headingId}
      data-testid="connection-row"
      className="grid min-w-0 gap-4 border-b px-4 py-4 last:border-b-0"
    >
      <div className="grid min-w-0 gap-1">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <h3 id={headingId} className="min-w-0 truncate font-semibold">
            {c.label}
          </h3>
          <ConnectionBadges connection={c} statusTestId="connection-status" />
        </div>
        <p className="text-sm text-muted-foreground">
          <span className="font-medium text-foreground tabular-nums" data-testid="connection-phone">
            {c.phoneNumber ? formatPhone(c.phoneNumber) : 'Número ainda não identificado'}
          </span>
          {' · '}
          {KIND_LABELS[c.kind]}
        </p>
      </div>

      <dl className="grid grid-cols-2 gap-3 text-sm lg:grid-cols-4">
        <div className="grid gap-0.5">
          <dt className="text-xs text-muted-foreground">Saúde</dt>
          <dd className={cn('flex items-center gap-2 font-medium', health.text)} data-testid="connection-health">
            <span aria-hidden className={cn('size-2.5 shrink-0 rounded-full', health.dot)} />
            {health.label}
          </dd>
        </div>
        <div className="grid gap-0.5">
          <dt className="text-xs text-muted-foreground">Falhas nas últimas 24 h</dt>
          <dd className="font-medium tabular-nums">{formatNumber(c.health.recentFailures)}</dd>
        </div>
        <div className="grid gap-0.5">
          <dt className="text-xs text-muted-foreground">Envios de campanha</dt>
          <dd className="font-medium tabular-nums" data-testid="connection-today">
            Hoje: {formatNumber(c.sentToday)} de {formatNumber(c.dailyLimit)}
          </dd>
        </div>
        <div className="grid gap-0.5">
          <dt className="text-xs text-muted-foreground">Respostas (24 h)</dt>
          <dd className="font-medium tabular-nums">{countLabel(c.health.repliesToday, 'mensagem', 'mensagens')}</dd>
        </div>
        {healthSignals(c.health).map((signal) => (
          <div key={signal.key} className="grid gap-0.5">
            <dt className="text-xs text-muted-foreground">{signal.label}</dt>
            <dd className="font-medium tabular-nums" data-testid={`connection-${signal.key}`}>
              {formatNumber(signal.value)}
            </dd>
          </div>
        ))}
      </dl>

      <div className="flex items-start justify-between gap-4 rounded-md border bg-muted/40 px-3 py-2">
        <div className="grid gap-0.5">
          <Label htmlFor={botSwitchId}>
            Chatbot neste número
            {of}
          </Label>
          <p id={`${botSwitchId}-desc`} className="text-xs text-muted-foreground">
            {c.botEnabled
              ? 'O chatbot responde às mensagens recebidas por este número.'
              : 'O chatbot não responde por este número (pedidos de SAIR continuam valendo).'}
          </p>
        </div>
        <Switch
          id={botSwitchId}
          checked={c.botEnabled}
          disabled={busy || !canChange}
          aria-describedby={`${botSwitchId}-desc`}
          onCheckedChange={(checked) => actions.onToggleBot(c, checked)}
          data-testid="connection-bot-switch"
        />
      </div>

      {c.health.restriction || canClearRestriction(c) ? (
        <div
          className="flex flex-col gap-3 rounded-md bg-red-50 p-3 text-sm text-red-800 sm:flex-row sm:items-center sm:justify-between"
          data-testid="connection-restriction"
        >
          <p>
            O WhatsApp limitou este número
            {c.health.restriction ? ` (código ${c.health.restriction.code})` : ''}. Ele não recebe envios enquanto a
            restrição durar.
          </p>
          {canClearRestriction(c) ? (
            <PermissionGatedButton
              size="sm"
              variant="outline"
              className="shrink-0 bg-white"
              disabled={busy}
              icon={<ShieldCheck aria-hidden />}
              onClick={() => actions.onClearRestriction(c)}
              data-testid="connection-clear-restriction"
            >
              Liberar número
              {of}
            </PermissionGatedButton>
          ) : null}
        </div>
      ) : null}

      {c.kind === 'cloud' ? (
        <div className="grid min-w-0 gap-3 md:grid-cols-3">
          {c.phoneNumberId ? (
            <CopyField compact label="Phone Number ID" value={c.phoneNumberId} testId="connection-phone-number-id" />
          ) : null}
          {webhook ? (
            <CopyField compact label="URL de retorno" value={webhook} testId="connection-webhook-url" />
          ) : null}
          {c.verifyToken ? (
            <CopyField compact label="Token de verificação" value={c.verifyToken} testId="connection-verify-token" />
          ) : null}
        </div>
      ) : null}

      <div className="flex flex-wrap gap-2">
        {personal && needsPairing(c.status) ? (
          <PermissionGatedButton size="sm" icon={<QrCode aria-hidden />} onClick={() => actions.onConnect(c)}>
            Conectar
            {of}
          </PermissionGatedButton>
        ) : null}
        {personal && isPairing(c.status) ? (
          <PermissionGatedButton size="sm" icon={<QrCode aria-hidden />} onClick={() => actions.onConnect(c)}>
            Ver QR code
            {of}
          </PermissionGatedButton>
        ) : null}
        {personal && !needsPairing(c.status) ? (
          <PermissionGatedButton
            size="sm"
            variant="outline"
            icon={<Unplug aria-hidden />}
            onClick={() => actions.onDisconnect(c)}
          >
            Desconectar
            {of}
          </PermissionGatedButton>
        ) : null}
        {c.isDefault ? null : (
          <PermissionGatedButton
            size="sm"
            variant="outline"
            disabled={busy}
            icon={<Star aria-hidden />}
            onClick={() => actions.onMakeDefault(c)}
          >
            Tornar padrão
            {of}
          </PermissionGatedButton>
        )}
        <PermissionGatedButton
          size="sm"
          variant="outline"
          disabled={busy}
          icon={busy ? <Spinner /> : c.paused ? <Play aria-hidden /> : <Pause aria-hidden />}
          onClick={() => actions.onTogglePause(c)}
        >
          {c.paused ? 'Retomar' : 'Pausar'}
          {of}
        </PermissionGatedButton>
        <PermissionGatedButton
          size="sm"
          variant="outline"
          icon={<SlidersHorizontal aria-hidden />}
          onClick={() => actions.onConfigure(c)}
        >
          Configurar envio
          {of}
        </PermissionGatedButton>
        <PermissionGatedButton
          size="sm"
          variant="outline"
          icon={<Pencil aria-hidden />}
          onClick={() => actions.onRename(c)}
        >
          Renomear
          {of}
        </PermissionGatedButton>
        <PermissionGatedButton
          size="sm"
          variant="ghost"
          className="text-red-700 hover:bg-red-50"
          icon={<Trash2 aria-hidden />}
          onClick={() => actions.onRemove(c)}
        >
          Remover
          {of}
        </PermissionGatedButton>
      </div>
    </li>
  );
}
