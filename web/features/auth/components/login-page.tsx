import { BarChart3, Bot, CircleAlert, CircleCheck, Megaphone } from 'lucide-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { msg } from '#contract/messages';
import { passwordResetMsg } from '#contract/password-reset';
import { teamMsg } from '#contract/team';
import { BrandMark } from '#web/components/brand-mark';
import { Card, CardContent, CardHeader } from '#web/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs';
import { paths } from '#web/lib/paths';
import { useProductName } from '#web/lib/public-config';
import { usePageTitle } from '#web/lib/use-page-title';
import { LoginForm } from './login-form';
import { RegisterForm } from './register-form';
import { RegisterSuccess } from './register-success';

type AuthTab = 'login' | 'register';

const highlights = [
  { icon: Megaphone, text: 'Campanhas em massa para contatos e grupos' },
  { icon: Bot, text: 'Chatbot com respostas automáticas e IA' },
  { icon: BarChart3, text: 'Relatórios de entrega e desempenho' },
];

export default function LoginPage() {
  const product = useProductName();
  usePageTitle('Entrar');
  const [searchParams, setSearchParams] = useSearchParams();
  const tab: AuthTab = searchParams.get('tab') === 'register' ? 'register' : 'login';
  const [demoExpired, setDemoExpired] = useState(false);
  const [registeredEmail, setRegisteredEmail] = useState<string | null>(null);
  const showExpired = demoExpired || searchParams.get('expired') === '1';
  // After a new password or an accepted invitation (`/login?reset=1`, `/login?convite=1`): what to do now.
  const doneNotice =
    tab !== 'login'
      ? null
      : searchParams.get('reset') === '1'
        ? passwordResetMsg.resetDone
        : searchParams.get('convite') === '1'
          ? teamMsg.accepted
          : null;

  const selectTab = (next: string) => {
    setRegisteredEmail(null);
    setSearchParams(
      (prev) => {
        const params = new URLSearchParams(prev);
        if (next === 'register') params.set('tab', 'register');
        else params.delete('tab');
        return params;
      },
      { replace: true },
    );
  };

  return (
    <div className="grid min-h-dvh lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
      <aside className="relative hidden overflow-hidden bg-gradient-to-br from-brand-deep to-brand-ink p-12 text-white lg:flex lg:flex-col lg:justify-between">
        <Link to={paths.home} className="flex items-center gap-2 text-xl font-semibold">
          <BrandMark product={product} large onDark />
        </Link>
        <div className="grid max-w-md gap-6">
          <p className="text-3xl leading-tight font-semibold">
            Campanhas de WhatsApp, chatbot e contatos em um só lugar.
          </p>
          <ul className="grid gap-3">
            {highlights.map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-center gap-3 text-white/95">
                <span className="flex size-8 items-center justify-center rounded-md bg-white/10">
                  <Icon aria-hidden className="size-4" />
                </span>
                {text}
              </li>
            ))}
          </ul>
        </div>
        <p className="text-sm text-white/85">Ativação rápida com atendimento pelo WhatsApp.</p>
      </aside>

      <main className="flex items-start justify-center px-4 py-8 sm:items-center sm:py-12">
        <div className="grid w-full max-w-md gap-6">
          <Link to={paths.home} className="flex items-center justify-center gap-2 text-xl font-semibold lg:hidden">
            <BrandMark product={product} large />
          </Link>

          {showExpired ? (
            <div
              role="alert"
              className="flex items-start gap-3 rounded-lg border border-red-200 bg-red-50 p-4 text-red-800"
            >
              <CircleAlert aria-hidden className="mt-0.5 size-5 shrink-0" />
              <div className="grid gap-1">
                <p className="font-semibold">{msg.auth.demoExpired}</p>
                <p className="text-sm">
                  Seu período de teste terminou. Crie uma conta ou assine um plano para continuar.
                </p>
              </div>
            </div>
          ) : null}

          {doneNotice ? (
            <div
              role="status"
              className="flex items-start gap-3 rounded-lg border border-green-200 bg-green-50 p-4 text-green-900"
            >
              <CircleCheck aria-hidden className="mt-0.5 size-5 shrink-0" />
              <p className="text-sm font-medium">{doneNotice}</p>
            </div>
          ) : null}

          <Card>
            <CardHeader className="pb-4">
              <h1 className="text-2xl font-semibold tracking-tight">
                {tab === 'login' ? 'Acesse sua conta' : 'Crie sua conta'}
              </h1>
              <p className="text-sm text-muted-foreground">
                {tab === 'login'
                  ? `Entre para gerenciar suas campanhas no ${product}.`
                  : 'Cadastre-se e fale com a nossa equipe para liberar o acesso.'}
              </p>
            </CardHeader>
            <CardContent>
              <Tabs value={tab} onValueChange={selectTab}>
                <TabsList className="grid w-full grid-cols-2">
                  <TabsTrigger value="login">Entrar</TabsTrigger>
                  <TabsTrigger value="register">Criar Conta</TabsTrigger>
                </TabsList>
                <TabsContent value="login" className="mt-6">
                  <LoginForm onDemoExpired={() => setDemoExpired(true)} />
                </TabsContent>
                <TabsContent value="register" className="mt-6">
                  {registeredEmail ? (
                    <RegisterSuccess email={registeredEmail} onBackToLogin={() => selectTab('login')} />
                  ) : (
                    <RegisterForm onRegistered={setRegisteredEmail} />
                  )}
                </TabsContent>
              </Tabs>
            </CardContent>
          </Card>

          <p className="text-center text-sm text-muted-foreground">
            Quer conhecer antes?{' '}
            <Link to={paths.demo} className="font-medium text-brand-ink underline-offset-4 hover:underline">
              Teste grátis por 2 horas
            </Link>
          </p>
        </div>
      </main>
    </div>
  );
}
