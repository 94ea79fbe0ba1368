import {
  Bot,
  BrainCircuit,
  type LucideIcon,
  MessageCircle,
  MessagesSquare,
  Percent,
  Reply,
  Settings,
} from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { LockedPage } from '#web/components/locked-state';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { ErrorState } from '#web/components/states';
import { Badge } from '#web/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { WhatsappText } from '#web/components/whatsapp-message';
import { useAuthenticatedUser } from '#web/lib/auth/get-me';
import { canReadWorkspace } from '#web/lib/auth/permissions';
import { formatCount, formatPercent } from '#web/lib/format';
import { type Metrics, useMetrics } from '#web/lib/metrics/get-metrics';
import { type BotConfig, useBotConfig } from '#web/lib/queries/get-bot-config';
import { BOT_REPLIES_PREVIEW, moreRepliesText } from '../auto-messages';
import { aiUnavailableText } from '../bot-config-form';
import { AutoMessagesManager } from './auto-messages-manager';
import { BotConfigDialog } from './bot-config-dialog';

/** SPEC §4: bot and AI flags read Ativo/Inativo. */
function OnOffBadge({ on, large = false }: { on: boolean; large?: boolean }) {
  return (
    <Badge tone={on ? 'green' : 'neutral'} className={large ? 'px-3 py-1 text-base' : undefined}>
      {on ? 'Ativo' : 'Inativo'}
    </Badge>
  );
}

function StatCard({ label, icon: Icon, children }: { label: string; icon: LucideIcon; children: ReactNode }) {
  return (
    <Card className="flex h-full flex-col gap-3 p-5">
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm font-medium text-muted-foreground">{label}</p>
        <span className="flex size-9 items-center justify-center rounded-md bg-brand-soft text-brand-strong">
          <Icon aria-hidden className="size-4" />
        </span>
      </div>
      {children}
    </Card>
  );
}

const METRICS: readonly {
  key: 'autoReplies' | 'activeChats' | 'responseRate';
  label: string;
  icon: LucideIcon;
  format: (n: number) => string;
}[] = [
  { key: 'autoReplies', label: 'Respostas automáticas', icon: Reply, format: formatCount },
  { key: 'activeChats', label: 'Conversas ativas', icon: MessagesSquare, format: formatCount },
  { key: 'responseRate', label: 'Taxa de resposta', icon: Percent, format: formatPercent },
];

type Query<T> = {
  data: T | null | undefined;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
};

/** Bot status and the three bot metrics (SPEC §2). */
function StatusAndMetrics({ config, metrics }: { config: Query<BotConfig>; metrics: Query<Metrics> }) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-label="Status e métricas do bot">
      <li>
        <StatCard label="Status do bot" icon={Bot}>
          {config.isPending ? (
            <Skeleton className="h-8 w-24" />
          ) : config.data ? (
            <div className="grid justify-items-start gap-2">
              <OnOffBadge on={config.data.isEnabled} large />
              <p className="text-xs text-muted-foreground">
                {config.data.isEnabled ? 'Respondendo automaticamente.' : 'Nenhuma resposta automática é enviada.'}
              </p>
            </div>
          ) : (
            <p className="text-sm text-muted-foreground">Indisponível</p>
          )}
        </StatCard>
      </li>
      {METRICS.map((m) => (
        <li key={m.key}>
          <StatCard label={m.label} icon={m.icon}>
            {metrics.isPending ? (
              <Skeleton className="h-8 w-20" />
            ) : metrics.data ? (
              <p className="text-3xl font-semibold tracking-tight tabular-nums">{m.format(metrics.data[m.key])}</p>
            ) : (
              <p className="text-sm text-muted-foreground">
                Indisponível.{' '}
                <button
                  type="button"
                  className="font-medium text-brand-ink underline underline-offset-4"
                  onClick={() => void metrics.refetch()}
                  disabled={metrics.isFetching}
                >
                  Tentar novamente
                </button>
              </p>
            )}
          </StatCard>
        </li>
      ))}
    </ul>
  );
}

function CardSkeleton() {
  return (
    <div className="grid gap-3" aria-hidden>
      <Skeleton className="h-5 w-full" />
      <Skeleton className="h-5 w-3/4" />
      <Skeleton className="h-5 w-1/2" />
    </div>
  );
}

function WelcomeCard({ config }: { config: BotConfig | undefined }) {
  return (
    <Card className="h-full">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <MessageCircle aria-hidden className="size-4 text-brand-strong" />
          Mensagem de boas-vindas
        </CardTitle>
        <CardDescription>Enviada no início de cada conversa nova.</CardDescription>
      </CardHeader>
      <CardContent>
        {!config ? (
          <CardSkeleton />
        ) : config.welcomeMessage.trim() ? (
          <p className="rounded-lg rounded-tl-none border border-emerald-200 bg-brand-soft px-3 py-2 text-sm break-words whitespace-pre-wrap">
            {config.welcomeMessage}
          </p>
        ) : (
          <p className="text-sm text-muted-foreground">
            Nenhuma mensagem de boas-vindas definida. Use Configurar Chatbot para escrever uma.
          </p>
        )}
      </CardContent>
    </Card>
  );
}

function RepliesCard({ config }: { config: BotConfig | undefined }) {
  const replies = config?.autoReplies ?? [];
  const more = moreRepliesText(replies.length);
  return (
    <Card className="h-full">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Reply aria-hidden className="size-4 text-brand-strong" />
          Respostas automáticas
        </CardTitle>
        <CardDescription>O que o bot responde a cada palavra-chave.</CardDescription>
      </CardHeader>
      <CardContent>
        {!config ? (
          <CardSkeleton />
        ) : replies.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            Nenhuma resposta automática configurada. Crie a primeira em Mensagens Automáticas, logo abaixo.
          </p>
        ) : (
          <div className="grid gap-3">
            <ul className="grid gap-3">
              {replies.slice(0, BOT_REPLIES_PREVIEW).map((r) => (
                <li key={r.id} className="grid gap-1 rounded-md bg-muted/60 px-3 py-2">
                  <p className="flex min-w-0 flex-wrap items-center gap-2 text-sm font-medium">
                    <span className="min-w-0 truncate">“{r.trigger || r.keyword}”</span>
                    {r.isActive ? null : <Badge tone="yellow">Pausada</Badge>}
                  </p>
                  <WhatsappText text={r.response} className="line-clamp-2 text-sm text-muted-foreground" />
                </li>
              ))}
            </ul>
            {more ? <p className="text-sm font-medium text-muted-foreground">{more}</p> : null}
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function AiCard({ config }: { config: BotConfig | undefined }) {
  const user = useAuthenticatedUser();
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle className="flex items-center gap-2">
            <BrainCircuit aria-hidden className="size-4 text-brand-strong" />
            Integração com IA
          </CardTitle>
          <CardDescription>Quando nenhuma palavra-chave combina, a IA (ChatGPT) pode responder.</CardDescription>
        </div>
        {config ? <OnOffBadge on={config.aiEnabled} /> : null}
      </CardHeader>
      <CardContent>
        {!config ? (
          <CardSkeleton />
        ) : (
          <dl className="grid gap-3 text-sm sm:grid-cols-2">
            <div className="grid gap-1">
              <dt className="text-muted-foreground">Modelo</dt>
              <dd className="font-medium">{config.aiModel}</dd>
            </div>
            <div className="grid gap-1">
              <dt className="text-muted-foreground">Disponibilidade neste servidor</dt>
              <dd>
                {config.aiAvailable ? (
                  <span className="font-medium text-green-800">Disponível: a chave da OpenAI está configurada.</span>
                ) : (
                  <span className={config.aiEnabled ? 'font-medium text-amber-900' : 'font-medium text-foreground'}>
                    {config.aiEnabled ? 'A IA está ligada, mas não responde. ' : ''}
                    {aiUnavailableText(user)}
                  </span>
                )}
              </dd>
            </div>
          </dl>
        )}
      </CardContent>
    </Card>
  );
}

/** /chatbot (SPEC §2): status, metrics, welcome, replies, AI, the config dialog and the automatic messages. */
export default function ChatbotPage() {
  const user = useAuthenticatedUser();
  const readable = canReadWorkspace(user);
  const config = useBotConfig(readable);
  const metrics = useMetrics(readable);
  const [configOpen, setConfigOpen] = useState(false);

  const header = (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="grid gap-1">
        <h2 className="text-lg font-semibold">Chatbot</h2>
        <p className="text-sm text-muted-foreground">
          Respostas automáticas por palavra-chave, boas-vindas e IA para atender seus clientes a qualquer hora.
        </p>
      </div>
      <PermissionGatedButton kind="bot" icon={<Settings aria-hidden />} onClick={() => setConfigOpen(true)}>
        Configurar Chatbot
      </PermissionGatedButton>
    </div>
  );

  if (!readable) return <LockedPage header={header} />;

  const loadedConfig = config.data ?? undefined;

  return (
    <div className="grid grid-cols-1 gap-6">
      {header}

      <StatusAndMetrics config={config} metrics={metrics} />

      {config.isError || (!config.isPending && !config.data) ? (
        <Card>
          <ErrorState
            title="Não foi possível carregar a configuração do bot."
            onRetry={() => void config.refetch()}
            retrying={config.isFetching}
          />
        </Card>
      ) : (
        <>
          <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
            <WelcomeCard config={loadedConfig} />
            <RepliesCard config={loadedConfig} />
          </div>
          <AiCard config={loadedConfig} />
        </>
      )}

      <AutoMessagesManager />

      <BotConfigDialog open={configOpen} onOpenChange={setConfigOpen} />
    </div>
  );
}
