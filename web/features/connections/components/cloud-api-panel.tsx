import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowRight, BadgeCheck, CheckCircle2, ExternalLink, RefreshCw, ShieldAlert, XCircle } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import {
  type BusinessProfile,
  type CloudApiConfig,
  type CloudApiHealth,
  type ConfigureCloudApiInput,
  cloudApiMsg,
  configureCloudApiInput,
  META_DEVELOPERS_URL,
} from '#contract/cloud-api';
import { msg } from '#contract/messages';
import { formatPhone } from '#contract/phone';
import { countLabel } from '#contract/plural';
import { CloudCredentialsFields } from '#web/components/cloud-credentials-fields';
import { ConnectionBadges } from '#web/components/connection-badges';
import { CopyField } from '#web/components/copy-field';
import { LockedState } from '#web/components/locked-state';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { ErrorState } from '#web/components/states';
import { Avatar } from '#web/components/ui/avatar';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { Spinner } from '#web/components/ui/spinner';
import { toast } from '#web/components/ui/use-toast';
import { errorMessage } from '#web/lib/api';
import { useAuthenticatedUser } from '#web/lib/auth/get-me';
import { canReadWorkspace } from '#web/lib/auth/permissions';
import { formatDateTime } from '#web/lib/format';
import { paths } from '#web/lib/paths';
import { useConnections } from '#web/lib/queries/connections';
import { cloudApiHealthQueryKey } from '#web/lib/query-keys';
import { toastSuccess } from '#web/lib/toasts';
import { useConfigureCloudApi } from '../api/configure-cloud-api';
import { useBusinessProfile } from '../api/get-business-profile';
import { useCloudApiConfig } from '../api/get-cloud-api-config';
import { getCloudApiHealth, useCloudApiHealth } from '../api/get-cloud-api-health';

/**
 * The 'API WhatsApp' tab (SPEC §2): status, profile, credentials, webhook and how-to, of the account's
 * primary Cloud number (the spec's routes speak of one). Numbers are managed in one place, the
 * 'Números' page: the tab says which number it shows and leads there for the others.
 */
export function CloudApiPanel() {
  const user = useAuthenticatedUser();
  const allowed = canReadWorkspace(user);
  if (!allowed) {
    return (
      <Card>
        <LockedState className="py-12" />
      </Card>
    );
  }
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
      <div className="grid min-w-0 content-start gap-6 lg:col-span-2">
        <StatusCard />
        <ProfileSection />
        <CredentialsCard />
      </div>
      <div className="grid min-w-0 content-start gap-6">
        <CloudNumbersCard />
        <WebhookCard />
        <HowToCard />
      </div>
    </div>
  );
}

/** Which Cloud number this tab shows (the default when it is one, else the oldest), the others, and the way to 'Números'. */
function CloudNumbersCard() {
  const { data } = useConnections();
  if (!data) return null;
  const cloud = data.connections.filter((c) => c.kind === 'cloud');
  const shown = cloud.find((c) => c.isDefault) ?? cloud[0];
  return (
    <Card data-testid="business-numbers">
      <CardHeader>
        <CardTitle>Números da API oficial</CardTitle>
        <CardDescription>
          {shown ? (
            <>
              Este painel mostra o número <strong className="text-foreground">{shown.label}</strong>.
            </>
          ) : (
            'O número que você configurar aqui aparece também em Números.'
          )}{' '}
          Adicione outros números, escolha o padrão e acompanhe cada um na página Números.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {cloud.length ? (
          <ul className="grid gap-2" aria-label="Números da API oficial">
            {cloud.map((c) => (
              <li
                key={c.id}
                className="flex min-w-0 flex-wrap items-center justify-between gap-2 rounded-lg border bg-muted/50 px-3 py-2"
              >
                <div className="grid min-w-0">
                  <span className="truncate text-sm font-semibold">{c.label}</span>
                  <span className="text-xs text-muted-foreground tabular-nums">
                    {c.phoneNumber ? formatPhone(c.phoneNumber) : 'Número ainda não identificado'}
                  </span>
                </div>
                <div className="flex flex-wrap items-center gap-1.5">
                  <ConnectionBadges connection={c} />
                </div>
              </li>
            ))}
          </ul>
        ) : null}
        <Button asChild variant="outline" className="w-full sm:w-auto sm:justify-self-start">
          <Link to={paths.connections}>
            Gerenciar números
            <ArrowRight aria-hidden />
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}

const QUALITY_LABELS: Record<string, string> = { GREEN: 'alta', YELLOW: 'média', RED: 'baixa' };

function qualityLabel(rating: string): string {
  return QUALITY_LABELS[rating] ?? rating;
}

/** Meta's messaging limit as the panel writes it. */
function messagingLimitText(limit: CloudApiHealth['messagingLimit']): string {
  if (limit === 'unlimited') return 'ilimitado';
  if (typeof limit === 'number') return countLabel(limit, 'conversa', 'conversas');
  return 'desconhecido (nenhum limite aplicado pelo Disparo)';
}

/** 'Limite de 2.000 conversas iniciadas em 24 h', 'Sem limite de conversas iniciadas'; null when Meta did not say. */
function limitPhrase(limit: CloudApiHealth['messagingLimit']): string | null {
  if (limit === 'unlimited') return 'Sem limite de conversas iniciadas';
  if (typeof limit === 'number')
    return `Limite de ${countLabel(limit, 'conversa iniciada', 'conversas iniciadas')} em 24 h`;
  return null;
}

/** What a 'Verificar' found, said in a toast: the number and what Meta reports about it, or what is wrong. */
function announceHealth(health: CloudApiHealth) {
  if (health.healthy) {
    const found = [
      health.phoneNumber ? `Número ${health.phoneNumber}` : null,
      health.displayName ?? null,
      health.qualityRating ? `Qualidade ${qualityLabel(health.qualityRating)}` : null,
      limitPhrase(health.messagingLimit),
    ].filter(Boolean);
    toast({
      title: cloudApiMsg.connected,
      description: found.length ? found.join(' · ') : cloudApiMsg.connectedHint,
      variant: 'success',
    });
  } else if (!health.configured) {
    toast({ title: cloudApiMsg.notConfigured, description: cloudApiMsg.notConfiguredHint });
  } else {
    toast({
      title: cloudApiMsg.verifyFailedTitle,
      description: health.message ?? cloudApiMsg.graphUnreachable,
      variant: 'destructive',
    });
  }
}

function StatusCard() {
  const health = useCloudApiHealth();
  const queryClient = useQueryClient();
  const [checking, setChecking] = useState(false);
  const verify = async () => {
    setChecking(true);
    try {
      const fresh = await getCloudApiHealth(true);
      queryClient.setQueryData(cloudApiHealthQueryKey, fresh);
      announceHealth(fresh);
    } catch (error) {
      console.warn('Falha ao verificar a API', error);
      toast({
        title: cloudApiMsg.verifyFailedTitle,
        description: errorMessage(error, cloudApiMsg.verifyRequestFailed),
        variant: 'destructive',
      });
    } finally {
      setChecking(false);
    }
  };
  const data = health.data;
  const healthy = data?.healthy === true;
  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle>Status da API</CardTitle>
          <CardDescription>API oficial do WhatsApp Business (Cloud API).</CardDescription>
        </div>
        <Button variant="outline" size="sm" onClick={() => void verify()} disabled={checking} aria-busy={checking}>
          {checking ? <Spinner /> : <RefreshCw aria-hidden />}
          Verificar
        </Button>
      </CardHeader>
      <CardContent>
        {health.isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : health.isError ? (
          <ErrorState
            className="py-4"
            title="Não foi possível verificar a API."
            onRetry={() => void health.refetch()}
          />
        ) : (
          <div className="grid gap-3" data-testid="business-status">
            <div className="flex flex-wrap items-center gap-3 rounded-lg border bg-muted/50 p-3">
              {healthy ? (
                <CheckCircle2 aria-hidden className="size-8 shrink-0 text-brand-strong" />
              ) : (
                <XCircle aria-hidden className="size-8 shrink-0 text-zinc-500" />
              )}
              <div className="min-w-40 flex-1">
                <p className="font-semibold">{healthy ? cloudApiMsg.connected : cloudApiMsg.notConfigured}</p>
                <p className="text-sm text-muted-foreground">
                  {healthy ? cloudApiMsg.connectedHint : cloudApiMsg.notConfiguredHint}
                </p>
              </div>
              {healthy && data?.qualityRating ? (
                <Badge
                  tone={data.qualityRating === 'GREEN' ? 'green' : data.qualityRating === 'YELLOW' ? 'yellow' : 'red'}
                >
                  Qualidade: {qualityLabel(data.qualityRating)}
                </Badge>
              ) : null}
            </div>
            {healthy && data ? <HealthFacts health={data} /> : null}
            {data?.message && data.configured ? (
              <p className="flex items-start gap-2 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
                <ShieldAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
                {data.message}
              </p>
            ) : null}
            {data?.checkedAt ? (
              <p className="text-xs text-muted-foreground" data-testid="business-checked-at">
                Última verificação: {formatDateTime(data.checkedAt)}
              </p>
            ) : null}
          </div>
        )}
      </CardContent>
    </Card>
  );
}

/** What the last check found about the connected number, in one line (the profile card has the rest). */
function HealthFacts({ health }: { health: CloudApiHealth }) {
  if (!health.phoneNumber) return null;
  const limit = limitPhrase(health.messagingLimit);
  return (
    <p className="text-sm" data-testid="business-health-facts">
      Número conectado: <span className="font-medium tabular-nums">{health.phoneNumber}</span>
      {health.displayName ? ` (${health.displayName})` : ''}
      {limit ? ` · ${limit}` : ''}
    </p>
  );
}

function ProfileSection() {
  const health = useCloudApiHealth();
  const profile = useBusinessProfile(health.data?.healthy === true);
  if (health.data?.healthy !== true || !profile.data) return null;
  return <ProfileCard profile={profile.data} />;
}

function ProfileCard({ profile }: { profile: BusinessProfile }) {
  return (
    <Card data-testid="business-profile">
      <CardHeader>
        <CardTitle>Perfil Comercial</CardTitle>
      </CardHeader>
      <CardContent className="flex items-center gap-4">
        {profile.profilePicture ? (
          <img
            src={profile.profilePicture}
            alt={`Foto do perfil de ${profile.name}`}
            referrerPolicy="no-referrer"
            className="size-16 rounded-full border object-cover"
          />
        ) : (
          <Avatar name={profile.name} className="size-16 text-lg" />
        )}
        <div className="grid min-w-0 gap-1">
          <p className="flex items-center gap-1.5 font-semibold">
            <span className="truncate">{profile.name}</span>
            {profile.verified ? <BadgeCheck aria-label="Verificado" className="size-4 shrink-0 text-blue-600" /> : null}
          </p>
          <p className="text-sm tabular-nums">{profile.phone}</p>
          <p className="text-sm text-muted-foreground">Status: {profile.status || '—'}</p>
          <p className="text-sm text-muted-foreground">
            Limite de conversas iniciadas (24 h): {messagingLimitText(profile.messagingLimit)}
          </p>
        </div>
      </CardContent>
    </Card>
  );
}

function CredentialsCard() {
  const config = useCloudApiConfig();
  const configure = useConfigureCloudApi();
  const form = useForm<ConfigureCloudApiInput>({
    resolver: zodResolver(configureCloudApiInput),
    defaultValues: { accessToken: '', phoneNumberId: '', businessAccountId: '', appId: '', appSecret: '' },
  });
  const { errors } = form.formState;
  const saved = config.data;

  useEffect(() => {
    if (!saved?.configured) return;
    form.reset({
      accessToken: '',
      phoneNumberId: saved.phoneNumberId ?? '',
      businessAccountId: saved.businessAccountId ?? '',
      appId: saved.appId ?? '',
      appSecret: '',
    });
  }, [saved, form]);

  const onSubmit = form.handleSubmit((values) =>
    configure.mutate(values, {
      onSuccess: (res) => {
        toastSuccess(res.message);
        form.resetField('accessToken');
        form.resetField('appSecret');
      },
      onError: (error) =>
        toast({
          title: cloudApiMsg.configureErrorTitle,
          description: errorMessage(error, msg.generic.internal),
          variant: 'destructive',
        }),
    }),
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Credenciais da API</CardTitle>
        <CardDescription>
          {saved?.configured
            ? 'Credenciais salvas e criptografadas. Para trocar, informe o Access Token novamente.'
            : 'Informe os dados do seu app no Meta for Developers.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2">
          <CloudCredentialsFields
            idPrefix="business"
            register={(name) => form.register(name)}
            errors={errors}
            saved={{ accessToken: saved?.configured === true, appSecret: saved?.hasAppSecret === true }}
          />
          <div className="sm:col-span-2">
            <PermissionGatedButton type="submit" disabled={configure.isPending} className="w-full sm:w-auto">
              {configure.isPending ? 'Verificando credenciais...' : 'Salvar Configuração'}
            </PermissionGatedButton>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function webhookUrl(config: CloudApiConfig): string | null {
  if (config.webhookUrl) return config.webhookUrl;
  return config.webhookPath ? `${window.location.origin}${config.webhookPath}` : null;
}

function WebhookCard() {
  const config = useCloudApiConfig();
  const url = config.data ? webhookUrl(config.data) : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Webhook</CardTitle>
        <CardDescription>Cole estes dados em WhatsApp › Configuração no painel da Meta.</CardDescription>
      </CardHeader>
      <CardContent className="grid min-w-0 gap-3">
        {config.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : !config.data?.configured || !url ? (
          <p className="text-sm text-muted-foreground">Salve as credenciais para gerar a URL e o token do webhook.</p>
        ) : (
          <>
            <CopyField label="URL de retorno" value={url} testId="webhook-url" />
            <CopyField
              label="Token de verificação"
              value={config.data.verifyToken ?? ''}
              testId="webhook-verify-token"
            />
            {config.data.hasAppSecret ? null : (
              <p
                className="flex items-start gap-2 rounded-md bg-amber-50 p-3 text-sm text-amber-900"
                data-testid="webhook-needs-secret"
              >
                <ShieldAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
                {cloudApiMsg.webhookNeedsSecret}
              </p>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

function HowToCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Como configurar</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <ol className="grid list-decimal gap-2 pl-5 text-sm text-muted-foreground">
          <li>Crie um app do tipo Empresa no Meta for Developers e adicione o produto WhatsApp.</li>
          <li>Em WhatsApp › Configuração da API, copie o Phone Number ID e o Business Account ID.</li>
          <li>Gere um token de acesso permanente (usuário do sistema) com a permissão whatsapp_business_messaging.</li>
          <li>Copie o App Secret em Configurações do app › Básico.</li>
          <li>Salve as credenciais aqui e cadastre a URL e o token do webhook, assinando o campo messages.</li>
        </ol>
        <Button asChild variant="outline">
          <a href={META_DEVELOPERS_URL} target="_blank" rel="noopener noreferrer">
            <ExternalLink aria-hidden />
            Abrir Meta for Developers
          </a>
        </Button>
      </CardContent>
    </Card>
  );
}
